"""MultibodyPlant introspection: counts, lookups by index and name, topology queries,
limits, coordinate names and selector matrices. Works before and after Finalize() except
where a method needs coordinates."""

import numpy as np

from mallard.common._pybind import call_form, overloads
from mallard.multibody.tree._indices import (
    BodyIndex,
    FrameIndex,
    JointActuatorIndex,
    JointIndex,
    ModelInstanceIndex,
)
from mallard.multibody.tree._multibody_element import use_instead, warn_deprecated


class IntrospectionMixin:
    """Introspection methods of MultibodyPlant."""

    def _throw_if_not_finalized(self, method):
        if not self._is_finalized:
            raise RuntimeError(
                f"Pre-finalize calls to '{method}()' are not allowed; you must call Finalize() "
                "first."
            )

    # ---- counts --------------------------------------------------------------------------
    def num_bodies(self):
        return len(self._bodies)

    def num_joints(self):
        return len(self._joints)

    def num_frames(self):
        return len(self._frames)

    def num_force_elements(self):
        return len(self._force_elements)

    def num_model_instances(self):
        return len(self._instance_names)

    def num_actuators(self, model_instance=None):
        """The number of actuators (of ``model_instance``, if given: after Finalize() only)."""
        if model_instance is None:
            return len(self._actuators)
        self._throw_if_not_finalized("num_actuators")
        self._check_instance(model_instance)
        return sum(1 for a in self._actuators if a.model_instance() == model_instance)

    def num_actuated_dofs(self, model_instance=None):
        """The size of the actuation vector u (of ``model_instance``'s part, if given: after
        Finalize() only)."""
        if model_instance is None:
            return len(self._actuators)  # (one input each: AddJointActuator)
        self._throw_if_not_finalized("num_actuated_dofs")
        self._check_instance(model_instance)
        return len(self._instance_u[int(model_instance)])

    def num_positions(self, model_instance=None):
        """nq (of ``model_instance``, if given)."""
        self._throw_if_not_finalized("num_positions")
        if model_instance is None:
            return self._nq
        self._check_instance(model_instance)
        return len(self._instance_q[int(model_instance)])

    def num_velocities(self, model_instance=None):
        """nv (of ``model_instance``, if given)."""
        self._throw_if_not_finalized("num_velocities")
        if model_instance is None:
            return self._nv
        self._check_instance(model_instance)
        return len(self._instance_v[int(model_instance)])

    def num_multibody_states(self, model_instance=None):
        """nq + nv (of ``model_instance``, if given)."""
        self._throw_if_not_finalized("num_states")
        return self.num_positions(model_instance) + self.num_velocities(model_instance)

    def IsVelocityEqualToQDot(self):
        """True if q̇ = v for every joint (no quaternion or roll-pitch-yaw ball joints)."""
        self._throw_if_not_finalized("num_positions")
        return all(
            j.num_positions() == j.num_velocities()
            and j.type_name() not in ("ball_rpy", "rpy_floating")
            for j in self._joints
        )

    # ---- elements by index ---------------------------------------------------------------
    def world_body(self):
        return self._bodies[0]

    def world_frame(self):
        return self._frames[0]

    def _with_index(self, attr, index):
        """The element of the list ``attr`` with index ``index`` (an int), or None if there is
        none (never given, or removed). The list is in increasing index order, and an element
        is at most at its index (indices of removed elements leave gaps)."""
        elements = getattr(self, attr)
        if index < len(elements) and int(elements[index]._index) == index:
            return elements[index]  # (nothing removed before it)
        lo, hi = 0, min(index, len(elements))
        while lo < hi:
            mid = (lo + hi) // 2
            if int(elements[mid]._index) < index:
                lo = mid + 1
            else:
                hi = mid
        found = elements[lo] if lo < len(elements) else None
        return found if found is not None and int(found._index) == index else None

    def _by_index(self, attr, index, index_type, label):
        if not isinstance(index, index_type):
            raise TypeError(f"expected a {index_type.__name__}, got {type(index).__name__}")
        if int(index) < 0:
            raise RuntimeError(
                f"The given default-constructed {label}() cannot be used. You must pass a valid "
                "integer as the index."
            )
        if int(index) >= self._next_index[attr]:
            raise RuntimeError(
                f"The given {label}({int(index)}) is out of bounds (must be less than "
                f"{self._next_index[attr]})"
            )
        element = self._with_index(attr, int(index))
        if element is None:
            raise RuntimeError(f"The {label}({int(index)}) has been removed")
        return element

    def get_body(self, body_index):
        return self._by_index("_bodies", body_index, BodyIndex, "RigidBodyIndex")

    def get_frame(self, frame_index):
        return self._by_index("_frames", frame_index, FrameIndex, "FrameIndex")

    def get_joint(self, joint_index):
        return self._by_index("_joints", joint_index, JointIndex, "JointIndex")

    def get_mutable_joint(self, joint_index):
        return self.get_joint(joint_index)

    def get_joint_actuator(self, actuator_index):
        return self._by_index(
            "_actuators", actuator_index, JointActuatorIndex, "JointActuatorIndex"
        )

    def get_mutable_joint_actuator(self, actuator_index):
        return self.get_joint_actuator(actuator_index)

    def get_force_element(self, force_element_index):
        from mallard.multibody.tree._indices import ForceElementIndex

        return self._by_index(
            "_force_elements", force_element_index, ForceElementIndex, "ForceElementIndex"
        )

    def has_joint(self, joint_index):
        """True if this plant has a joint with index ``joint_index`` (not removed)."""
        return self._with_index("_joints", int(joint_index)) is not None

    def has_joint_actuator(self, actuator_index):
        """True if this plant has an actuator with index ``actuator_index`` (not removed)."""
        return self._with_index("_actuators", int(actuator_index)) is not None

    # ---- model instances -----------------------------------------------------------------
    def GetModelInstanceName(self, model_instance):
        self._check_instance_exists(model_instance)
        return self._instance_names[int(model_instance)]

    def HasModelInstanceNamed(self, name):
        return name in self._instance_indices

    def GetModelInstanceByName(self, name):
        if name not in self._instance_indices:
            listing = ", ".join(f"'{n}'" for n in sorted(self._instance_names))
            raise RuntimeError(
                f"GetModelInstanceByName(): There is no model instance named '{name}'. The "
                f"current model instances are {listing}."
            )
        return ModelInstanceIndex._trusted(self._instance_indices[name])

    # ---- elements by name ----------------------------------------------------------------
    def _instances_with(self, kind, name):
        return self._names[kind].instances_of(name)

    def _lookup(self, kind, name, model_instance, method):
        """The element of ``kind`` named ``name`` (in ``model_instance`` if given)."""
        names = self._names[kind]
        if model_instance is not None:
            if type(model_instance) is ModelInstanceIndex and (  # (the common case)
                0 <= model_instance._value < len(self._instance_names)
            ):
                element = names.get((model_instance._value, name))
            else:
                self._check_instance_exists(model_instance)
                element = names.get((int(model_instance), name))
            if element is not None:
                return element
        instances = names.instances_of(name)
        if model_instance is None and len(instances) == 1:
            return names[(instances[0], name)]
        if model_instance is None and len(instances) > 1:
            raise RuntimeError(self._ambiguous(method, kind, name, instances))
        if instances:
            others = ", ".join(self._instance_names[mi] for mi in instances)
            raise RuntimeError(
                f"{method}(): There is no {kind} named '{name}' in the model instance named "
                f"'{self._instance_names[int(model_instance)]}', but one does exist in other "
                f"model instances ({others})."
            )
        by_instance = {}
        for mi, n in names:
            by_instance.setdefault(mi, []).append(n)
        listing = "; ".join(
            f"valid names in model instance '{self._instance_names[mi]}' are: "
            f"{', '.join(sorted(by_instance[mi]))}"
            for mi in sorted(by_instance)
        )
        raise RuntimeError(
            f"{method}(): There is no {kind} named '{name}' anywhere in the model ({listing})"
        )

    def _ambiguous(self, method, kind, name, instances):
        listing = ", ".join(self._instance_names[mi] for mi in instances)
        return (
            f"{method}(): A {kind} named '{name}' appears in multiple model instances "
            f"({listing}); you must provide a model_instance argument to disambiguate."
        )

    def _has(self, kind, name, model_instance, method):
        if model_instance is not None:
            self._check_instance_exists(model_instance)
            return (int(model_instance), name) in self._names[kind]
        instances = self._instances_with(kind, name)
        if len(instances) > 1:
            raise RuntimeError(self._ambiguous(method, kind, name, instances))
        return bool(instances)

    def GetBodyByName(self, name, model_instance=None):
        return self._lookup("RigidBody", name, model_instance, "GetRigidBodyByName")

    def GetRigidBodyByName(self, name, model_instance=None):
        return self._lookup("RigidBody", name, model_instance, "GetRigidBodyByName")

    def GetFrameByName(self, name, model_instance=None):
        return self._lookup("Frame", name, model_instance, "GetFrameByName")

    def GetJointByName(self, name, model_instance=None):
        return self._lookup("Joint", name, model_instance, "GetJointByName")

    def GetMutableJointByName(self, name, model_instance=None):
        return self._lookup("Joint", name, model_instance, "GetJointByName")

    def GetJointActuatorByName(self, name, model_instance=None):
        return self._lookup("JointActuator", name, model_instance, "GetJointActuatorByName")

    def HasBodyNamed(self, name, model_instance=None):
        return self._has("RigidBody", name, model_instance, "HasRigidBodyNamed")

    def HasFrameNamed(self, name, model_instance=None):
        return self._has("Frame", name, model_instance, "HasFrameNamed")

    def HasJointNamed(self, name, model_instance=None):
        return self._has("Joint", name, model_instance, "HasJointNamed")

    def HasJointActuatorNamed(self, name, model_instance=None):
        return self._has("JointActuator", name, model_instance, "HasJointActuatorNamed")

    def NumBodiesWithName(self, name):
        return len(self._instances_with("RigidBody", name))

    # ---- indices by model instance -------------------------------------------------------
    def _indices_in(self, elements, model_instance):
        if model_instance is None:
            return [e.index() for e in elements]
        self._check_instance(model_instance)
        return [e.index() for e in elements if e.model_instance() == model_instance]

    def GetBodyIndices(self, model_instance):
        return self._indices_in(self._bodies, model_instance)

    def GetFrameIndices(self, model_instance):
        return self._indices_in(self._frames, model_instance)

    def GetJointIndices(self, model_instance=None):
        return self._indices_in(self._joints, model_instance)

    def GetJointActuatorIndices(self, model_instance=None):
        return self._indices_in(self._actuators, model_instance)

    def GetActuatedJointIndices(self, model_instance):
        self._check_instance(model_instance)
        return [a.joint().index() for a in self._actuators if a.model_instance() == model_instance]

    # ---- topology ------------------------------------------------------------------------
    def _welded_groups(self):
        """Union-find over bodies joined by WeldJoints: body index -> representative."""
        rep = list(range(len(self._bodies)))

        def find(b):
            while rep[b] != b:
                rep[b] = rep[rep[b]]
                b = rep[b]
            return b

        for j in self._joints:
            if j.type_name() == "weld":
                a, b = find(int(j.parent_body().index())), find(int(j.child_body().index()))
                rep[max(a, b)] = min(a, b)
        return [find(b) for b in range(len(self._bodies))]

    def GetBodiesWeldedTo(self, body):
        """The bodies welded to ``body`` (directly or through other welds), ``body`` included,
        in index order."""
        self._check_body_of_plant(body, "GetBodiesWeldedTo")
        groups = self._welded_groups()
        group = groups[int(body.index())]
        return [self._bodies[b] for b in range(len(self._bodies)) if groups[b] == group]

    def IsAnchored(self, body):
        """True if ``body`` is welded to World (directly or through other welds)."""
        self._throw_if_not_finalized("IsAnchored")
        self._check_body_of_plant(body, "IsAnchored")
        return self._welded_groups()[int(body.index())] == 0

    def _check_body_of_plant(self, body, method):
        from mallard.multibody.tree._rigid_body import RigidBody

        if not isinstance(body, RigidBody):
            raise TypeError(f"{method}(): body must be a RigidBody, got {type(body).__name__}")
        if body._plant is not self:
            raise RuntimeError(f"{method}(): body '{body.name()}' is not part of this plant")

    def GetBodiesKinematicallyAffectedBy(self, joint_indexes):
        """The bodies outboard of the given joints (whose pose depends on their q), sorted."""
        self._throw_if_not_finalized("GetBodiesKinematicallyAffectedBy")
        affected = set()
        children = [[] for _ in self._topology.mobods]
        for k, m in enumerate(self._topology.mobods[1:], start=1):
            children[m.parent].append(k)
        for index in joint_indexes:
            joint = self.get_joint(index)
            if joint.type_name() == "weld":
                continue
            stack = [
                k for k, m in enumerate(self._topology.mobods) if m.joint == int(joint.index())
            ]
            while stack:
                k = stack.pop()
                affected.add(self._topology.mobods[k].body)
                stack += children[k]
        return [BodyIndex(b) for b in sorted(affected)]

    def GetFloatingBaseBodies(self):
        """The set of bodies mobilized by a floating joint the plant added at Finalize()."""
        self._throw_if_not_finalized("GetFloatingBaseBodies")
        return {j.child_body().index() for j in self._joints if j.is_ephemeral()}

    def _unique_base_body(self, model_instance, method):
        """The only body of ``model_instance`` mobilized directly from World, or None."""
        self._throw_if_not_finalized(method)
        self._check_instance(model_instance)
        if int(model_instance) == 0:
            return None
        bases = [
            self._bodies[m.body]
            for m in self._topology.mobods[1:]
            if m.parent == 0 and self._bodies[m.body].model_instance() == model_instance
        ]
        return bases[0] if len(bases) == 1 else None

    def HasUniqueFloatingBaseBody(self, model_instance):
        """True if ``model_instance`` has one base body (mobilized from World), and it is a
        floating base body."""
        base = self._unique_base_body(model_instance, "HasUniqueFloatingBaseBody")
        return base is not None and self._inboard_joint(base).is_ephemeral()

    def HasUniqueFreeBaseBody(self, model_instance):
        """Deprecated: use HasUniqueFloatingBaseBody."""
        warn_deprecated(use_instead("HasUniqueFloatingBaseBody"))
        return self.HasUniqueFloatingBaseBody(model_instance)

    def GetUniqueFloatingBaseBodyOrThrow(self, model_instance):
        """The floating base body of ``model_instance``, which must be its only base body."""
        base = self._unique_base_body(model_instance, "GetUniqueFloatingBaseBodyOrThrow")
        name = self._instance_names[int(model_instance)]
        if base is None:
            raise RuntimeError(f"Model {name} does not have a unique base body.")
        if not self._inboard_joint(base).is_ephemeral():
            raise RuntimeError(
                f"Model {name} has a unique base body, but it is not a floating base body."
            )
        return base

    def GetUniqueFreeBaseBodyOrThrow(self, model_instance):
        """Deprecated: use GetUniqueFloatingBaseBodyOrThrow."""
        warn_deprecated(use_instead("GetUniqueFloatingBaseBodyOrThrow"))
        return self.GetUniqueFloatingBaseBodyOrThrow(model_instance)

    def GetTopologyGraphvizString(self):
        """The bodies (grouped by model instance) and joints as a Graphviz digraph."""
        lines = ["digraph MultibodyPlant {", 'label="";', "rankdir=BT;", "labelloc=t;"]
        for mi, name in enumerate(self._instance_names):
            lines += [f"subgraph cluster{mi} {{", f' label="{name}";']
            lines += [
                f' body{int(b.index())} [label="{b.name()}"];'
                for b in self._bodies
                if int(b.model_instance()) == mi
            ]
            lines.append("}")
        for j in self._joints:
            lines.append(
                f"body{int(j.child_body().index())} -> body{int(j.parent_body().index())} "
                f'[label="{j.name()} [{j.type_name()}]"];'
            )
        lines.append("}")
        return "\n".join(lines) + "\n"

    # ---- limits --------------------------------------------------------------------------
    def _stack(self, method, attribute):
        """The joints' limits ``attribute`` (e.g. "_pos_lower") stacked in q or v order."""
        self._throw_if_not_finalized(method)
        in_q = attribute.startswith("_pos")
        out = np.empty(self._nq if in_q else self._nv)
        for j in self._joints:
            values = getattr(j, attribute)
            start = j._q_start if in_q else j._v_start
            out[start : start + len(values)] = values
        return out

    def GetPositionLowerLimits(self):
        return self._stack("GetPositionLowerLimits", "_pos_lower")

    def GetPositionUpperLimits(self):
        return self._stack("GetPositionUpperLimits", "_pos_upper")

    def GetVelocityLowerLimits(self):
        return self._stack("GetVelocityLowerLimits", "_vel_lower")

    def GetVelocityUpperLimits(self):
        return self._stack("GetVelocityUpperLimits", "_vel_upper")

    def GetAccelerationLowerLimits(self):
        return self._stack("GetAccelerationLowerLimits", "_acc_lower")

    def GetAccelerationUpperLimits(self):
        return self._stack("GetAccelerationUpperLimits", "_acc_upper")

    def GetEffortLowerLimits(self):
        self._throw_if_not_finalized("GetEffortLowerLimits")
        return np.array([-a.effort_limit() for a in self._actuators])

    def GetEffortUpperLimits(self):
        self._throw_if_not_finalized("GetEffortUpperLimits")
        return np.array([a.effort_limit() for a in self._actuators])

    def RemoveAllJointActuatorEffortLimits(self):
        """Sets every actuator's effort limit to ∞."""
        for a in self._actuators:
            a.set_effort_limit(np.inf)

    # ---- names of coordinates ------------------------------------------------------------
    def _coordinate_names(self, method, model_instance, prefix, always_add_suffix, velocities):
        self._throw_if_not_finalized(method)
        joints = self._joints
        if model_instance is not None:
            self._check_instance(model_instance)
            joints = [j for j in joints if j.model_instance() == model_instance]
        named = []
        for j in joints:
            start, n = (
                (j._v_start, j.num_velocities()) if velocities else (j._q_start, j.num_positions())
            )
            suffixes = j._velocity_suffixes if velocities else j._position_suffixes
            head = f"{self._instance_names[int(j.model_instance())]}_" if prefix else ""
            for i in range(n):
                name = head + j.name()
                if always_add_suffix or n > 1:
                    name += "_" + suffixes[i]
                named.append((start + i, name))
        return [name for _, name in sorted(named)]

    @overloads(
        "add_model_instance_prefix=, always_add_suffix=",
        "model_instance, add_model_instance_prefix=, always_add_suffix=",
    )
    def GetPositionNames(self, *args, **kwargs):
        """Names ``{instance}_{joint}_{suffix}`` of the positions, in q order (of one model
        instance if given: then without the instance prefix by default)."""
        mi, prefix, suffix = _name_args(args, kwargs, True)
        return self._coordinate_names("GetPositionNames", mi, prefix, suffix, False)

    @overloads(
        "add_model_instance_prefix=, always_add_suffix=",
        "model_instance, add_model_instance_prefix=, always_add_suffix=",
    )
    def GetVelocityNames(self, *args, **kwargs):
        """Names of the velocities, in v order (see GetPositionNames)."""
        mi, prefix, suffix = _name_args(args, kwargs, True)
        return self._coordinate_names("GetVelocityNames", mi, prefix, suffix, True)

    @overloads("add_model_instance_prefix=", "model_instance, add_model_instance_prefix=")
    def GetStateNames(self, *args, **kwargs):
        """Position names then velocity names, always with suffixes."""
        mi, prefix, _ = _name_args(args, kwargs, False)
        return self._coordinate_names("GetPositionNames", mi, prefix, True, False) + (
            self._coordinate_names("GetVelocityNames", mi, prefix, True, True)
        )

    @overloads("add_model_instance_prefix=", "model_instance, add_model_instance_prefix=")
    def GetActuatorNames(self, *args, **kwargs):
        """Names ``{instance}_{actuator}`` of the actuation inputs, in u order."""
        mi, prefix, _ = _name_args(args, kwargs, False)
        self._throw_if_not_finalized("GetActuatorNames")
        actuators = self._actuators
        if mi is not None:
            self._check_instance(mi)
            actuators = [a for a in actuators if a.model_instance() == mi]
        return [
            (f"{self._instance_names[int(a.model_instance())]}_" if prefix else "") + a.name()
            for a in actuators
        ]

    # ---- selector and actuation matrices -------------------------------------------------
    def MakeStateSelectorMatrix(self, user_to_joint_index_map):
        """Sx with x_s = Sx·x, x_s = [q_s; v_s] of the joints given, in that order."""
        self._throw_if_not_finalized("MakeStateSelectorMatrix")
        joints = [self.get_joint(i) for i in user_to_joint_index_map]
        seen = set()
        for j in joints:
            if int(j.index()) in seen:
                raise RuntimeError(f"Joint named '{j.name()}' is repeated multiple times.")
            seen.add(int(j.index()))
        q_cols = [c for j in joints for c in range(j._q_start, j._q_start + j.num_positions())]
        v_cols = [
            self._nq + c for j in joints for c in range(j._v_start, j._v_start + j.num_velocities())
        ]
        cols = q_cols + v_cols
        S = np.zeros((len(cols), self._nq + self._nv))
        S[np.arange(len(cols)), cols] = 1.0
        return S

    @overloads("user_to_actuator_index_map", "user_to_joint_index_map")
    def MakeActuatorSelectorMatrix(self, *args, **kwargs):
        """Su with u = Su·u_s, for a list of JointActuatorIndex (``user_to_actuator_index_map``)
        or of JointIndex (``user_to_joint_index_map``: each joint's actuator) in the user's
        order."""

        def accept(form, values):
            (indices,) = values.values()
            return all(isinstance(i, JointIndex) == (form == 1) for i in indices)

        _, values = call_form(
            IntrospectionMixin.MakeActuatorSelectorMatrix,
            args,
            kwargs,
            "MultibodyPlant.MakeActuatorSelectorMatrix",
            accept,
        )
        self._throw_if_not_finalized("MakeActuatorSelectorMatrix")
        actuators = []
        (indices,) = values.values()
        for index in indices:
            if isinstance(index, JointIndex):
                joint = self.get_joint(index)
                match = [a for a in self._actuators if a.joint() is joint]
                if not match:
                    raise RuntimeError(f"Joint '{joint.name()}' does not have an actuator.")
                actuators.append(match[0])
            else:
                actuators.append(self.get_joint_actuator(index))
        S = np.zeros((self.num_actuated_dofs(), len(actuators)))
        for k, a in enumerate(actuators):
            S[a._input_start, k] = 1.0
        return S

    def MakeActuationMatrix(self):
        """B (nv × nu) with tau = B·u: B[joint velocity, actuator input] = 1."""
        self._throw_if_not_finalized("num_velocities")
        B = np.zeros((self._nv, self.num_actuated_dofs()))
        for a in self._actuators:
            B[a.joint()._v_start, a._input_start] = 1.0
        return B


def _name_args(args, kwargs, with_suffix):
    """(model_instance, add_model_instance_prefix, always_add_suffix) of the name methods."""
    args = list(args)
    mi = kwargs.pop("model_instance", None)
    if args and isinstance(args[0], ModelInstanceIndex):
        mi = args.pop(0)
    names = ["add_model_instance_prefix"] + (["always_add_suffix"] if with_suffix else [])
    values = {"add_model_instance_prefix": mi is None, "always_add_suffix": True}
    if len(args) > len(names):
        raise TypeError("too many arguments")
    values.update(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"unexpected argument {key!r}")
        values[key] = value
    return mi, bool(values["add_model_instance_prefix"]), bool(values["always_add_suffix"])
