"""RandomSimulation and MonteCarloSimulation: simulations whose randomness all comes from one
RandomGenerator, so that each can be replayed from a snapshot of it."""

import copy
import numbers

from mallard.common._random import RandomGenerator, check_generator
from mallard.systems.analysis._simulator import Simulator


class RandomSimulationResult:
    """One sample of MonteCarloSimulation: ``output``, and ``generator_snapshot``, the
    generator as it was before the simulation (RandomSimulation with a copy of it replays
    the sample)."""

    __slots__ = ("generator_snapshot", "output")

    def __init__(self, generator_snapshot, output):
        self.generator_snapshot = generator_snapshot
        self.output = output

    def __repr__(self):
        return f"RandomSimulationResult(output={self.output!r})"


def RandomSimulation(make_simulator, output, final_time, generator):
    """``make_simulator(generator)`` makes a Simulator; its system's Context is set to a
    random sample (SetRandomContext with ``generator``), simulated to ``final_time``, and
    ``output(system, context)`` (a float) is returned."""
    check_generator(generator, "RandomSimulation()")
    simulator = make_simulator(generator)
    if not isinstance(simulator, Simulator):
        raise TypeError(
            f"RandomSimulation(): make_simulator must return a Simulator, got "
            f"{type(simulator).__name__}"
        )
    system = simulator.get_system()
    context = simulator.get_mutable_context()
    system.SetRandomContext(context, generator)
    simulator.AdvanceTo(final_time)
    value = output(system, simulator.get_context())
    if not isinstance(value, numbers.Real):
        raise TypeError(
            f"RandomSimulation(): output must return a float, got {type(value).__name__}"
        )
    return float(value)


def MonteCarloSimulation(make_simulator, output, final_time, num_samples, generator=None):
    """``num_samples`` RandomSimulations drawing from ``generator`` in turn (a new default
    RandomGenerator if None); returns a list of RandomSimulationResult (serially: mallard
    has no parallel execution)."""
    if generator is None:
        generator = RandomGenerator()
    check_generator(generator, "MonteCarloSimulation()")
    num_samples = int(num_samples)
    if num_samples < 0:
        raise RuntimeError(f"MonteCarloSimulation(): num_samples must be >= 0, got {num_samples}")
    results = []
    for _ in range(num_samples):
        snapshot = copy.deepcopy(generator)
        value = RandomSimulation(make_simulator, output, final_time, generator)
        results.append(RandomSimulationResult(snapshot, value))
    return results
