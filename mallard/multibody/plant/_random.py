"""MultibodyPlant's random state: SetRandomState (System.SetRandomContext calls it) from the
joints' random distributions, and the free-body distributions.

As in Drake, each joint with a distribution (set with its ``set_random_*`` methods, symbolic
Expressions of random Variables) draws its positions from the generator, joint after joint in
the order of q, and gets zero velocities; the other joints take their default state.
"""

from mallard import _template
from mallard.common._random import check_generator
from mallard.multibody.tree._quaternion_floating_joint import QuaternionFloatingJoint


class RandomMixin:
    """SetRandomState and the SetFreeBodyRandom*Distribution methods."""

    def SetRandomState(self, context, state, generator):
        """Sets ``state`` (a State of ``context``) to a sample: q of each joint with a random
        distribution is drawn from ``generator`` (a RandomGenerator, or None if no
        distribution has random variables), v is zero; the other joints take their defaults.
        RuntimeError before Finalize()."""
        self._throw_if_not_finalized("SetRandomState")
        if generator is not None:
            check_generator(generator, "SetRandomState")
        self.SetDefaultState(context, state)
        x = self._x_of(state)
        T = getattr(type(self), "_template_scalar", float)
        for joint in sorted(self._joints, key=lambda j: j._q_start):
            q = joint._sample_random_positions(generator)
            if q is not None:
                x[joint._q_start : joint._q_start + q.shape[0]] = _template.array_to_scalar(q, T)

    def SetFreeBodyRandomPositionDistribution(self, body, position):
        """Sets the distribution of the free ``body``'s position p_FoMo_F (3 Expressions of
        random Variables) used by SetRandomState. RuntimeError unless ``body`` is free and
        the plant finalized."""
        joint = self._free_joint(body, "SetFreeBodyRandomPositionDistribution")
        joint.set_random_translation_distribution(position)

    def SetFreeBodyRandomRotationDistribution(self, body, rotation):
        """Sets the distribution of the free ``body``'s orientation (a Quaternion of
        Expressions) used by SetRandomState. RuntimeError unless ``body`` is free (with a
        QuaternionFloatingJoint) and the plant finalized."""
        method = "SetFreeBodyRandomRotationDistribution"
        self._quaternion_free_joint(body, method).set_random_quaternion_distribution(rotation)

    def SetFreeBodyRandomRotationDistributionToUniform(self, body):
        """Makes SetRandomState draw the free ``body``'s orientation uniformly over all
        rotations. RuntimeError unless ``body`` is free (with a QuaternionFloatingJoint) and
        the plant finalized."""
        method = "SetFreeBodyRandomRotationDistributionToUniform"
        self._quaternion_free_joint(body, method).set_random_quaternion_distribution_to_uniform()

    def _quaternion_free_joint(self, body, method):
        joint = self._free_joint(body, method)
        if not isinstance(joint, QuaternionFloatingJoint):
            raise RuntimeError(
                f"{method}(): body '{body.name()}' is mobilized by {joint._describe()}, not a "
                "QuaternionFloatingJoint; use its set_random_angles_distribution()"
            )
        return joint
