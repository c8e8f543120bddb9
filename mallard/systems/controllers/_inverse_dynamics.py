"""InverseDynamics, as pydrake's: the generalized forces a MultibodyPlant needs for a desired
acceleration (or, in gravity compensation mode, to hold its state against gravity)."""

import enum

from mallard._scalar import as_array
from mallard.systems.framework import LeafSystem


class _InverseDynamicsMode(enum.IntEnum):
    kInverseDynamics = 0
    kGravityCompensation = 1


class InverseDynamics(LeafSystem):
    """``InverseDynamics(plant, mode=kInverseDynamics)`` for a finalized MultibodyPlant.

    Inputs ``estimated_state`` (x = [q; v]) and, in kInverseDynamics mode,
    ``desired_acceleration`` (v̇_d); output ``generalized_force``:
    τ = M(q)·v̇_d + C(q, v)·v − τ_app(q, v), with τ_app the force elements' forces (gravity
    included) and joint damping; in kGravityCompensation mode τ = −τ_g(q).
    """

    InverseDynamicsMode = _InverseDynamicsMode
    _cpp_type = "drake::systems::controllers::InverseDynamics<double>"

    def __init__(self, plant, mode=_InverseDynamicsMode.kInverseDynamics, plant_context=None):
        super().__init__()
        if not plant.is_finalized():
            raise RuntimeError("InverseDynamics: the plant must be finalized")
        self._plant = plant
        self._mode = _InverseDynamicsMode(mode)
        if plant_context is None:
            plant_context = plant.CreateDefaultContext()
        else:  # (copied, as Drake does: its parameters override the plant's defaults)
            plant.ValidateContext(plant_context)
            plant_context = plant_context.Clone()
        self._plant_context = plant_context
        nq, nv = plant.num_positions(), plant.num_velocities()
        self._estimated = self.DeclareVectorInputPort("estimated_state", nq + nv)
        self._desired = None
        if self._mode == _InverseDynamicsMode.kInverseDynamics:
            self._desired = self.DeclareVectorInputPort("desired_acceleration", nv)
        self._force = self.DeclareVectorOutputPort("generalized_force", nv, self._calc_force)

    def is_pure_gravity_compensation(self):
        return self._mode == _InverseDynamicsMode.kGravityCompensation

    def get_input_port_estimated_state(self):
        return self._estimated

    def get_input_port_desired_acceleration(self):
        if self._desired is None:
            raise RuntimeError(
                "InverseDynamics: there is no desired_acceleration input in gravity "
                "compensation mode"
            )
        return self._desired

    def get_output_port_generalized_force(self):
        return self._force

    def _scalar_conversion_args(self, T):
        return self._plant.ToScalarType[T](), self._mode  # (a converted copy of the plant)

    def _calc_force(self, context, output):
        output.SetFromVector(self._generalized_force(self._estimated.Eval(context), context))

    def _generalized_force(self, x, context, vdot=None):
        plant, pc = self._plant, self._plant_context
        plant.SetPositionsAndVelocities(pc, x)
        if self._mode == _InverseDynamicsMode.kGravityCompensation:
            return -plant.CalcGravityGeneralizedForces(pc)
        if vdot is None:
            vdot = self._desired.Eval(context)
        from mallard.multibody.tree import MultibodyForces

        forces = MultibodyForces(plant)
        plant.CalcForceElementsContribution(pc, forces)
        return plant.CalcInverseDynamics(pc, as_array(vdot, name="desired_acceleration"), forces)
