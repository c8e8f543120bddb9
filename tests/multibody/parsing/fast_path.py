"""The differential checks of the parsers' fast paths (test_mjcf_fast_path, test_urdf_fast_path):
a parse's outcome with the fast path on or off, the plant dumped field by field to the bit."""

import logging

import numpy as np

from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant


def _h(x):
    return np.asarray(x, dtype=float).tobytes()


def dump(plant):
    """The plant's elements field by field (floats as their bytes), in index order."""
    out = [plant.num_model_instances()]
    for body in plant._bodies:
        M = body.default_spatial_inertia()
        out.append((body.name(), int(body.index()), int(body.model_instance()),
                    _h(M.get_mass()), _h(M.get_com()),
                    _h(M.get_unit_inertia().CopyToFullMatrix3())))  # fmt: skip
    for frame in plant._frames:
        X = frame.GetFixedPoseInBodyFrame()
        out.append((type(frame).__name__, frame.name(), int(frame.index()), frame.body().name(),
                    int(frame.model_instance()), _h(X.rotation().matrix()),
                    _h(X.translation())))  # fmt: skip
    for joint in plant._joints:
        row = (type(joint).__name__, joint.name(), int(joint.index()),
               joint.frame_on_parent().name(), joint.frame_on_child().name(),
               _h(joint.position_lower_limits()), _h(joint.position_upper_limits()),
               _h(joint.velocity_upper_limits()), _h(joint.default_positions()))  # fmt: skip
        if joint.num_velocities() == 1:
            row += (_h(joint.default_damping()),)
        for axis in ("revolute_axis", "translation_axis"):
            if hasattr(joint, axis):
                row += (_h(getattr(joint, axis)()),)
        out.append(row)
    for actuator in plant._actuators:
        gains = actuator.get_controller_gains() if actuator.has_controller() else None
        out.append((actuator.name(), int(actuator.index()), actuator.joint().name(),
                    _h(actuator.effort_limit()), _h(actuator.default_gear_ratio()),
                    _h(actuator.default_rotor_inertia()),
                    None if gains is None else (_h(gains.p), _h(gains.d))))  # fmt: skip
    for body, X in sorted(plant._default_floating_poses.items()):
        out.append((body, _h(X.rotation().matrix()), _h(X.translation())))
    out.append(_ball_constraints(plant))
    return out


def _ball_constraints(plant):
    """The plant's ball constraints (bodies, points as bytes; not their ids), in order."""
    specs = plant.get_ball_constraint_specs()
    return [(int(spec.body_A), _h(spec.p_AP), int(spec.body_B),
             None if spec.p_BQ is None else _h(spec.p_BQ)) for spec in specs.values()]  # fmt: skip


def finalized(plant):
    """Finalize's results of the plant (the mass matrix, the positions, the limits, the ball
    constraints), the plant then finalized."""
    plant.Finalize()
    context = plant.CreateDefaultContext()
    return (_h(plant.CalcMassMatrix(context)), _h(plant.GetPositions(context)),
            _h(plant.GetPositionLowerLimits()), _h(plant.GetEffortUpperLimits()),
            _ball_constraints(plant))  # fmt: skip


class Records(logging.Handler):
    """The messages of the records it handles, in order."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def outcome(fast_path, gate, add, fast, monkeypatch, before=None):
    """(what ``add(parser)`` made: ("plant", dump, warnings, Finalize's) or (the error's type
    and text, warnings), whether the fast path made it) with the module ``fast_path``'s
    ``parse`` on or off (``fast``), its size gate (the module's attribute ``gate``) at 0 (small
    documents too); ``before(plant)`` first adds what the plant holds already (its parse not
    counted)."""
    accepted = []

    def spy(workspace, data, file):
        result = parse(workspace, data, file)
        accepted.append(result is not None)
        return result

    parse = fast_path.parse
    monkeypatch.setattr(fast_path, "parse", spy if fast else lambda *args: None)
    monkeypatch.setattr(fast_path, gate, 0)
    records = Records()
    logger = logging.getLogger("mallard.parsing")
    logger.addHandler(records)
    propagate, logger.propagate = logger.propagate, False
    plant = MultibodyPlant(0.0)
    try:
        if before is not None:
            before(plant)
            accepted.clear()
        add(Parser(plant))
        made = ("plant", dump(plant), list(records.messages), finalized(plant))
    except Exception as error:  # (the reader's: its type and text)
        made = (type(error).__name__, str(error), list(records.messages))
    finally:
        logger.removeHandler(records)
        logger.propagate = propagate
        monkeypatch.setattr(fast_path, "parse", parse)
    return made, any(accepted)


def check(fast_path, gate, add, monkeypatch, before=None):
    """Whether the fast path made a plant that is then made and finalized without error
    (equal to the reader's outcome: asserted; an outcome that is an error, the same on both
    paths, counts as not accepted, so that an accepting test cannot pass on two equal
    errors). Arguments: :func:`outcome`'s."""
    reader, _ = outcome(fast_path, gate, add, False, monkeypatch, before)
    ours, accepted = outcome(fast_path, gate, add, True, monkeypatch, before)
    assert ours == reader
    return accepted and ours[0] == "plant"
