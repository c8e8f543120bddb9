"""MultibodyPlant: a system of rigid bodies connected by joints, as pydrake's.

The class is assembled from mixins, one file per concept: construction and Finalize() (this
file), introspection (``_introspection``), state access (``_state_access``), kinematics
(``_kinematics``), Jacobians (``_jacobians``), dynamics (``_dynamics``) and ports
(``_ports``). Data flows one way (ARCHITECTURE.md): elements are
added, Finalize() builds the topology and the flat model, contexts hold state, parameters and
a cache, and kernels compute from arrays.
"""

import bisect
import itertools
import math
from itertools import compress, repeat
from operator import attrgetter, not_

import numpy as np

from mallard.common._gc import paused_collection
from mallard.common._pybind import overloads
from mallard.math import RigidTransform
from mallard.multibody import _joint_types
from mallard.multibody.plant._constraints import CONSTRAINT_KINDS, ConstraintsMixin
from mallard.multibody.plant._contact import ContactMixin
from mallard.multibody.plant._derivatives import DerivativesMixin
from mallard.multibody.plant._discrete import DiscreteMixin
from mallard.multibody.plant._discrete_contact_approximation import DiscreteContactApproximation
from mallard.multibody.plant._dynamics import DynamicsMixin
from mallard.multibody.plant._engine import Engine
from mallard.multibody.plant._geometry import GeometryMixin
from mallard.multibody.plant._introspection import IntrospectionMixin
from mallard.multibody.plant._jacobians import JacobiansMixin
from mallard.multibody.plant._kinematics import KinematicsMixin
from mallard.multibody.plant._parameters import PlantParameters
from mallard.multibody.plant._ports import PortsMixin
from mallard.multibody.plant._random import RandomMixin
from mallard.multibody.plant._scalar_conversion import ScalarConversionMixin
from mallard.multibody.plant._state_access import StateAccessMixin
from mallard.multibody.plant._stepping import compiled_stepper
from mallard.multibody.plant._topology import (
    Topology,
    build_forest,
    check_reversed_joints,
    mobilizer_axes,
    mobilizer_frames,
    non_identity_poses,
    revolute_turns,
    z_turns,
)
from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._frame import FixedOffsetFrame, Frame
from mallard.multibody.tree._indices import (
    BodyIndex,
    FrameIndex,
    JointActuatorIndex,
    JointIndex,
    ModelInstanceIndex,
    shared_index,
    shared_indices,
    world_model_instance,
)
from mallard.multibody.tree._joint import Joint
from mallard.multibody.tree._joint_actuator import JointActuator
from mallard.multibody.tree._quaternion_floating_joint import QuaternionFloatingJoint
from mallard.multibody.tree._rigid_body import RigidBody
from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint
from mallard.multibody.tree._spatial_inertia import SpatialInertia
from mallard.multibody.tree._uniform_gravity_field_element import UniformGravityFieldElement
from mallard.multibody.tree._weld_joint import WeldJoint
from mallard.systems.framework import LeafSystem

_BODY_FRAME = attrgetter("_body_frame")
_MODEL_INSTANCE = attrgetter("_model_instance")


class _ElementNames(dict):
    """(model instance, name) -> element of one kind; ``instances_of(name)``: the model
    instances (ints) with an element of that name (lookups by name alone). That index by name
    is brought up to date when asked (registration is a plain dict store): the names added since
    are the dict's last keys (a dict keeps its order of insertion), and a removal rebuilds it.
    (A name's instance is an int, a set only when several instances share the name: a set per
    element would be a fifth of what a parse leaves for the garbage collector to scan.)"""

    def __init__(self):
        super().__init__()
        self._instances = {}  # name -> its model instance (an int), or the set of them
        self._indexed = 0  # how many of the first keys _instances holds (None: rebuild it)

    def __delitem__(self, key):
        super().__delitem__(key)
        self._indexed = None

    def instances_of(self, name):
        """The model instances (ints) with an element named ``name``, in increasing order."""
        if self._indexed != len(self):
            self._update_instances()
        instances = self._instances.get(name)
        if instances is None:
            return []
        return sorted(instances) if type(instances) is set else [instances]

    def _update_instances(self):
        if self._indexed is None:
            self._instances, self._indexed = {}, 0
        by_name = self._instances
        for instance, name in itertools.islice(reversed(self.keys()), len(self) - self._indexed):
            instances = by_name.get(name)
            if instances is None:
                by_name[name] = instance
            elif type(instances) is set:
                instances.add(instance)
            elif instances != instance:
                by_name[name] = {instances, instance}
        self._indexed = len(self)


def _body_ends(joint):
    """(parent body index, child body index) of ``joint``, as ints."""
    return joint._frame_on_parent._body._index._value, joint._frame_on_child._body._index._value


def _joint_row(joint):
    """The plant's row of ``joint`` (see MultibodyPlant._joint_rows): (parent body index,
    child body index, nq, nv, model instance, type code), ints. (AddJoint and _add_checked
    make it in place, of the ends they read.)"""
    return (
        *_body_ends(joint), joint._nq, joint._nv, joint._model_instance._value, joint._jtype
    )  # fmt: skip


def _ends(joint):
    """The bodies a joint connects (by index), as a key that ignores their order (a tuple of
    ints, which the garbage collector stops tracking)."""
    a, b = _body_ends(joint)
    return (a, b) if a <= b else (b, a)


class _InstanceSlots:
    """Per model instance 0 … count − 1, the slots it owns, increasing: ``slots[i]``, an int64
    array (a view of one array, made when first read; then the same array at every read),
    ``owner()`` giving each slot's model instance, called at the first read. A plant reads few
    of them, often none: Finalize made all of them (~0.2 µs each, four per model instance),
    then their arrays (the owners, sorted and counted: 16 numpy calls of its fixed cost)."""

    __slots__ = ("_owner", "_order", "_ends", "_views")

    def __init__(self, owner, count):
        self._owner = owner
        self._order = self._ends = None
        self._views = [None] * count

    def __len__(self):
        return len(self._views)

    def __getitem__(self, i):
        view = self._views[i]
        if view is None:
            if self._order is None:
                owner = self._owner()
                self._order = owner.argsort(kind="stable")
                self._ends = np.bincount(owner, minlength=len(self._views)).cumsum().tolist()
            i %= len(self._views)
            start = self._ends[i - 1] if i else 0
            view = self._views[i] = self._order[start : self._ends[i]]
        return view


_F64 = np.dtype(np.float64)


def _in_rows(element_rows, width, fill, elements, positions=None):
    """A field of n elements as the rows of an (n, ``width``) float array, of their
    ``element_rows`` as the plant kept them when it added them: an element made with a row
    ((rows, j) in a parser's array, FieldInRow; else None, the field never set otherwise)
    read with the others of its array in one take, without making the field or reading the
    element; the others' by ``fill(out, ks, those elements)``, which writes their fields into
    out[ks] (element k: ``elements[k]``, or ``elements[positions[k]]``)."""
    out = np.empty((len(element_rows), width))
    if not any(element_rows):
        ks = range(len(element_rows))
    else:
        ks = _from_rows(out, element_rows)
        if not ks:
            return out
    picked = ks if positions is None else map(positions.__getitem__, ks)
    fill(out, slice(None) if type(ks) is range else ks, list(map(elements.__getitem__, picked)))
    return out


def _from_rows(out, element_rows):
    """out[k] = rows[j] for each (rows, j) of ``element_rows`` (one take per array of rows,
    the elements grouped by numpy masks on the arrays' ids: a parser's document's and
    Finalize's mobilizer frames share a few arrays); returns the ks of the elements without
    a row (None)."""
    n = len(element_rows)
    whole = all(element_rows)  # (a row is a non-empty tuple, true)
    if whole:
        present, pairs = slice(None), element_rows
    else:
        present = list(compress(range(n), element_rows))
        pairs = list(compress(element_rows, element_rows))
    arrays, js = zip(*pairs, strict=True)
    ids = list(map(id, arrays))
    js = np.fromiter(js, np.int64, len(arrays))
    if ids.count(ids[0]) == len(ids):  # (one array: a parser's document)
        out[present] = arrays[0][js]
    else:
        ids = np.array(ids, dtype=np.int64)
        distinct, first = np.unique(ids, return_index=True)
        present = np.arange(n)[present]
        for i, f in zip(distinct.tolist(), first.tolist(), strict=True):
            of = ids == i
            out[present[of]] = arrays[f][js[of]]
    return [] if whole else list(compress(range(n), map(not_, element_rows)))


def _run(ks):
    """The list of ints ``ks`` as an index: the slice of its run when it is one (k, k + 1,
    ...: a copy of a block, not an element at a time), else ``ks``."""
    if ks == list(range(ks[0], ks[0] + len(ks))):
        return slice(ks[0], ks[0] + len(ks))
    return ks


def _fill_inertias(out, ks, bodies):
    """out[ks] = [m, p, G] of the default M_BBo_B of ``bodies`` (for _in_rows)."""
    inertias = [body._M_BBo_B for body in bodies]
    out[ks, 0] = [M._m for M in inertias]
    out[ks, 1:] = _joined([a for M in inertias for a in (M._p, M._G)]).reshape(-1, 12)


def _fill_poses(out, ks, frames):
    """out[ks] = [R, p] of the default X_PF of the FixedOffsetFrames ``frames`` (for
    _in_rows)."""
    out[ks] = _X_rows([frame._X_PF for frame in frames])


def _X_rows(poses):
    """The (n, 12) float rows [R row by row, p] of the n RigidTransforms ``poses``."""
    return _joined([a for X in poses for a in (X._R._R, X._p)]).reshape(-1, 12)


def _joined(arrays):
    """The elements of a list of arrays, each flattened, one after another, as floats: for
    float64 arrays their bytes joined into one buffer (bytearray.join: one copy each, ~1/15 of
    np.concatenate's time for the hundreds of small arrays of a plant's elements); of no
    arrays, no floats."""
    if not arrays:
        return np.zeros(0)
    if list(map(attrgetter("dtype"), arrays)).count(_F64) == len(arrays):  # (no hashing)
        try:
            return np.frombuffer(bytearray().join(arrays), dtype=np.float64)
        except TypeError:  # (an array not C-contiguous: not a bytes-like object)
            pass
    return np.concatenate(list(map(np.ravel, arrays))).astype(float, copy=False)


class MultibodyPlant(
    IntrospectionMixin,
    StateAccessMixin,
    RandomMixin,
    KinematicsMixin,
    JacobiansMixin,
    DynamicsMixin,
    DerivativesMixin,
    DiscreteMixin,
    ConstraintsMixin,
    ContactMixin,
    PortsMixin,
    GeometryMixin,
    ScalarConversionMixin,
    LeafSystem,
):
    """A multibody system: bodies, frames, joints, actuators and force elements.

    ``time_step`` > 0 makes a discrete plant (state updated every time_step seconds by
    Drake's discrete solver, SAP by default, with joint limits, PD controllers and the added
    constraints as its constraints: see _discrete's and _constraints' docstrings), 0 a
    continuous one (its state integrated by
    a Simulator; joint limits ignored, constraints not allowed, as in Drake). Elements are
    added before Finalize(); queries that need the topology (coordinates, contexts,
    kinematics) work after it.
    """

    _cpp_type = "drake::multibody::MultibodyPlant<double>"

    def __init__(self, time_step):
        super().__init__()
        time_step = float(time_step)
        if not time_step >= 0:
            raise RuntimeError(
                f"MultibodyPlant(): time_step must be non-negative (0 for a continuous plant), "
                f"got {time_step}"
            )
        self._time_step = time_step
        self._is_finalized = False
        self._instance_names = ["WorldModelInstance", "DefaultModelInstance"]
        self._instance_indices = {name: i for i, name in enumerate(self._instance_names)}
        self._bodies = []
        self._frames = []
        self._joints = []
        # What Finalize reads instead of the elements, kept as the plant adds them: per body
        # (by index) its model instance and its inertia row ((rows, j) of RigidBody._in_rows,
        # else None); per FixedOffsetFrame, in the order added, its ordinal and its pose row
        # ((rows, j) of FixedOffsetFrame._in_rows, else None).
        self._body_instances, self._inertia_rows = [], []
        self._offset_frames, self._pose_rows = [], []
        # Per joint (by ordinal), its numbers as it was added, which Finalize reads instead of
        # the joint: (parent body index, child body index, nq, nv, model instance, type code).
        self._joint_rows = []
        self._joint_between = {}  # (body index, body index) in order -> joint (AddJoint's)
        self._actuators = []
        self._force_elements = []
        # Per element list, the number of indices given so far (a removed element's index is
        # not given again; see _add_element).
        self._next_index = {attr: 0 for attr, _ in self._ELEMENT_LISTS}
        self._default_floating_poses = {}
        # Constraints, MultibodyConstraintId -> spec (plant._constraint_specs), per kind
        # (DistanceConstraintParams for distance constraints).
        for kind in CONSTRAINT_KINDS:
            setattr(self, kind, {})
        self._continuous_constraints = False  # (a continuous plant with constraints: Finalize)
        self._discrete_contact_approximation = DiscreteContactApproximation.kLagged
        self._sap_near_rigid_threshold = 1.0
        self._use_sampled_output_ports = time_step > 0
        self._topology = None  # the mobods, their index maps (_topology.Topology): Finalize()
        self._engine = None  # the compiled engine (plant._engine.Engine), from Finalize()
        self._element_defaults_read = None  # (_element_defaults' arrays, from Finalize())
        # (model instance, name) -> element, per kind of element.
        self._names = {kind: _ElementNames() for kind in ("RigidBody", "Frame", "Joint",
                                                          "JointActuator")}  # fmt: skip
        world = RigidBody("world", world_model_instance(), SpatialInertia.NaN())
        self._add_body(world)
        self._gravity_field = UniformGravityFieldElement()
        self._add_force_element(self._gravity_field)
        self._init_geometry()
        self._init_contact()
        self._declare_geometry_ports()

    def _model_changed(self):
        """Marks the model-level values Contexts read (gravity vector, effort limits) as
        changed (Engine.model_changed), once finalized."""
        if self._is_finalized:
            self._engine.model_changed()

    def time_step(self):
        """The discrete update period, or 0 for a continuous plant."""
        return self._time_step

    def is_finalized(self):
        return self._is_finalized

    def _compiled_stepper(self):
        """The PlantStepper of the Simulator's compiled advance (plant._stepping); None before
        Finalize()."""
        return compiled_stepper(self) if self._is_finalized else None

    # ---- construction --------------------------------------------------------------------
    def _throw_if_finalized(self, method):
        if self._is_finalized:
            raise RuntimeError(
                f"Post-finalize calls to '{method}()' are not allowed; calls to this method must "
                "happen before Finalize()."
            )

    def _throw_if_tree_finalized(self, what):
        if self._is_finalized:
            raise RuntimeError(
                f"This MultibodyTree is finalized already. Therefore adding more {what} is not "
                "allowed. See documentation for Finalize() for details."
            )

    def _check_instance(self, model_instance):
        """TypeError unless ``model_instance`` is a ModelInstanceIndex, RuntimeError (Drake's
        message of the coordinate queries) unless it is one of this plant's."""
        self._check_instance_type(model_instance)
        if not 0 <= int(model_instance) < len(self._instance_names):
            raise RuntimeError(
                f"The given ModelInstanceIndex({int(model_instance)}) is out of bounds (must be "
                f"less than {len(self._instance_names)})"
            )

    def _check_instance_exists(self, model_instance):
        """As _check_instance, with Drake's message of the name queries."""
        count = len(self._instance_names)
        if type(model_instance) is ModelInstanceIndex and 0 <= model_instance._value < count:
            return  # (the common case)
        self._check_instance_type(model_instance)
        if not 0 <= int(model_instance) < len(self._instance_names):
            raise RuntimeError(f"There is no model instance id {int(model_instance)} in the model.")

    @staticmethod
    def _check_instance_type(model_instance):
        if not isinstance(model_instance, ModelInstanceIndex):
            raise TypeError(
                f"model_instance must be a ModelInstanceIndex, got {type(model_instance).__name__}"
            )

    def _check_name_free(self, kind, noun, model_instance, name):
        """RuntimeError if ``model_instance`` has an element of ``kind`` named ``name``."""
        if (int(model_instance), name) in self._names[kind]:
            raise RuntimeError(
                f"Model instance '{self._instance_names[int(model_instance)]}' already contains "
                f"a {noun} named '{name}'. {noun[0].upper() + noun[1:]} names must be unique "
                "within a given model."
            )

    def _register_name(self, kind, noun, element):
        """Records ``element`` under its (model instance, name); RuntimeError if taken."""
        names = self._names[kind]
        key = (element._model_instance._value, element._name)
        if key in names:
            self._check_name_free(kind, noun, element._model_instance, element._name)
        names[key] = element

    def _check_instance_name(self, name, method, model_instance=None):
        """RuntimeError if ``name`` is empty or names another model instance."""
        if not isinstance(name, str):
            raise TypeError(f"{method}(): name must be a str, got {type(name).__name__}")
        if name == "":
            raise RuntimeError(f"{method}(): the name of a model instance cannot be empty")
        if self._instance_indices.get(name, model_instance) != model_instance:
            raise RuntimeError(
                f"This model already contains a model instance named '{name}'. Model instance "
                "names must be unique within a given model."
            )

    def AddModelInstance(self, name):
        """Adds a model instance named ``name``; returns its ModelInstanceIndex."""
        if type(name) is not str or not name or name in self._instance_indices:
            self._check_instance_name(name, "AddModelInstance")  # (its error, if any)
        if self._is_finalized:
            self._throw_if_tree_finalized("model instances")
        self._instance_indices[name] = len(self._instance_names)
        self._instance_names.append(name)
        return ModelInstanceIndex._trusted(len(self._instance_names) - 1)

    def RenameModelInstance(self, model_instance, name):
        """Renames ``model_instance``; only before Finalize()."""
        self._throw_if_finalized("RenameModelInstance")
        self._check_instance_exists(model_instance)
        self._check_instance_name(name, "RenameModelInstance", int(model_instance))
        del self._instance_indices[self._instance_names[int(model_instance)]]
        self._instance_indices[name] = int(model_instance)
        self._instance_names[int(model_instance)] = name

    @overloads("name, M_BBo_B=", "name, model_instance, M_BBo_B=")
    def AddRigidBody(self, name, *args, **kwargs):
        """Adds a RigidBody ``name`` with spatial inertia M_BBo_B (zero if not given):
        ``AddRigidBody(name, M_BBo_B)`` in the default model instance, or
        ``AddRigidBody(name, model_instance, M_BBo_B)``. Returns the body."""
        if self._is_finalized:
            self._throw_if_finalized("AddRigidBody")
        if (  # (the common case, a parser's: (name, model_instance, M_BBo_B), checked here)
            len(args) == 2
            and not kwargs
            and type(name) is str
            and type(args[0]) is ModelInstanceIndex
            and type(args[1]) is SpatialInertia
            and name != ""
            and 0 < args[0]._value < len(self._instance_names)
        ):
            body = RigidBody._new(name, args[0], args[1])
            self._add_body(body)
            return body
        explicit = bool(args and isinstance(args[0], ModelInstanceIndex)) or (
            "model_instance" in kwargs
        )
        if not explicit and len(self._instance_names) > 2:
            raise RuntimeError(
                "This model has more model instances than the default.  Please call "
                "AddRigidBody with an explicit model instance."
            )
        if name == "":
            raise RuntimeError("The name parameter to the RigidBody constructor is required.")
        body = RigidBody(name, *args, **kwargs)
        mi = body._model_instance._value
        if not 0 <= mi < len(self._instance_names):
            raise RuntimeError("Invalid model instance specified.")
        if mi == 0:
            raise RuntimeError(
                "AddLink(): Model instance index 0 is reserved for the World link.  World is "
                "always predefined and is named 'world'."
            )
        self._add_body(body)
        return body

    def _add_element(self, attr, element):
        """Appends ``element`` to the element list ``attr`` (``_joints``...): the plant takes
        ownership of it, gives it the next index of its kind (never reused, even if an element
        is removed) and its ordinal (its position in the list, which the plant's arrays of that
        kind are indexed by)."""
        elements, next_index = getattr(self, attr), self._next_index
        index = next_index[attr]
        next_index[attr] = index + 1
        element._plant = self
        element._index = shared_index(element._index_type, index)
        element._ordinal = len(elements)
        elements.append(element)

    def _remove_element(self, attr, kind, element):
        """Removes ``element`` from the element list ``attr`` and its name from the names of
        ``kind``; the elements after it move up an ordinal; its index is not given again."""
        elements = getattr(self, attr)
        del elements[element._ordinal]
        for ordinal in range(element._ordinal, len(elements)):
            elements[ordinal]._ordinal = ordinal
        del self._names[kind][(int(element.model_instance()), element.name())]
        element._plant = element._index = element._ordinal = None

    def _add_body(self, body):
        frame = body._body_frame
        self._register_name("RigidBody", "body", body)
        self._register_name("Frame", "frame", frame)
        self._add_element("_bodies", body)
        self._add_element("_frames", frame)
        self._body_instances.append(body._model_instance._value)
        self._inertia_rows.append(body._inertia_row)

    def _add_frame_unchecked(self, frame):
        """Adds the FixedOffsetFrame ``frame`` (checked by the caller: AddFrame's checks)."""
        self._offset_frames.append(len(self._frames))
        self._pose_rows.append(frame._pose_row)
        self._add_element("_frames", frame)

    def _add_checked(self, bodies=(), frames=(), joints=()):
        """Adds elements a parser built and checked, in one pass (the parsers' bulk entry
        point): the effect of AddRigidBody on each of ``bodies`` (with its body frame), then
        AddFrame on each FixedOffsetFrame of ``frames``, then AddJoint on each of ``joints``,
        in their order (each a list or tuple). Build the elements with the constructors
        without checks (RigidBody._new, FixedOffsetFrame._new, LimitedSingleDofJoint._checked;
        RigidBody._adopting and FixedOffsetFrame._adopting for a parser's own inertias and
        poses: no copy, ~1 µs less each); the more of a document one call adds, the less each
        element costs (the call's own work is shared). The caller guarantees what those
        methods check: the plant not finalized, each element's model instance this plant's
        (not World's for a body), its name free among the plant's and this call's elements of
        its kind, frames' parents and joints' frames in this plant (or added before them
        here), each joint between two distinct bodies with no joint between them. (An error
        found after the call is undone by the parser's rollback: ``_checkpoint``,
        ``_rollback``.) A step per element, for a few (the element reader's body or joint); a
        document's elements made in their places (the tree's bulk constructors given
        ``_places``) are added by ``_add_placed``, by C iterators.
        """
        names, next_index = self._names, self._next_index
        if bodies:  # (each with its body frame)
            body_index, frame_index = next_index["_bodies"], next_index["_frames"]
            body_names, frame_names = names["RigidBody"], names["Frame"]
            body_list, frame_list = self._bodies, self._frames
            instances, inertia_rows = self._body_instances, self._inertia_rows
            body_indices = shared_indices(BodyIndex, body_index + len(bodies))
            frame_indices = shared_indices(FrameIndex, frame_index + len(bodies))
            for body in bodies:
                frame = body._body_frame
                key = (body._model_instance._value, body._name)
                body_names[key] = body
                frame_names[key] = frame
                body._plant = frame._plant = self
                body._index, frame._index = body_indices[body_index], frame_indices[frame_index]
                body._ordinal, frame._ordinal = len(body_list), len(frame_list)
                body_list.append(body)
                frame_list.append(frame)
                instances.append(key[0])
                inertia_rows.append(body._inertia_row)
                body_index += 1
                frame_index += 1
            next_index["_bodies"], next_index["_frames"] = body_index, frame_index
        if frames:
            next_index["_frames"] = self._attach(
                frames, names["Frame"], self._frames, next_index["_frames"], FrameIndex
            )
            for frame in frames:
                self._offset_frames.append(frame._ordinal)
                self._pose_rows.append(frame._pose_row)
        if joints:
            next_index["_joints"] = self._attach(
                joints, names["Joint"], self._joints, next_index["_joints"], JointIndex
            )
            for joint in joints:
                a = joint._frame_on_parent._body._index._value
                b = joint._frame_on_child._body._index._value
                self._joint_rows.append(
                    (a, b, joint._nq, joint._nv, joint._model_instance._value, joint._jtype)
                )
                self._joint_between[(a, b) if a <= b else (b, a)] = joint

    def _attach(self, elements, element_names, element_list, index, index_type):
        """Attaches ``elements`` (of one kind, a list or tuple) to this plant from ``index`` on
        (the shared indices of ``index_type``), as _add_checked says; returns the next
        index."""
        indices = shared_indices(index_type, index + len(elements))
        for element in elements:
            element_names[(element._model_instance._value, element._name)] = element
            element._plant = self
            element._index = indices[index]
            element._ordinal = len(element_list)
            element_list.append(element)
            index += 1
        return index

    _INDEX_TYPES = {
        "_bodies": BodyIndex,
        "_frames": FrameIndex,
        "_joints": JointIndex,
        "_actuators": JointActuatorIndex,
    }

    def _places(self, attr, n):
        """The places of the next ``n`` elements of the element list ``attr`` (``_bodies``,
        ``_frames``, ``_joints``, ``_actuators``), as the tree's bulk constructors take them:
        (this plant, their indices (shared), their ordinals (a range)). Nothing is reserved:
        the elements made there are added by ``_add_placed`` before any other is added."""
        index, count = self._next_index[attr], len(getattr(self, attr))
        indices = shared_indices(self._INDEX_TYPES[attr], index + n)[index : index + n]
        return self, indices, range(count, count + n)

    def _add_placed(self, bodies=(), frames=(), offset_frames=(), joints=(), actuators=()):
        """Adds elements made in the places ``_places`` gave (the tree's bulk constructors:
        RigidBody._in_rows, FixedOffsetFrame._in_rows, LimitedSingleDofJoint._all_checked,
        JointActuator._in_rows; or any element given its _plant, _index and _ordinal), as
        AddRigidBody, AddFrame, AddJoint and AddJointActuator add them, by comprehensions and
        C updates (no statement per element; a comprehension reads attributes about twice as
        fast as an attrgetter map in CPython 3.11): ``bodies``; ``frames``, every new frame
        (exactly the bodies' and the FixedOffsetFrames ``offset_frames``) in the order of
        their places; ``joints``; ``actuators``; each a list in the order of its places. The
        caller guarantees those methods' checks, as _add_checked's (and an actuator's joint
        single-dof, its name free in the joint's model instance)."""
        names, next_index = self._names, self._next_index
        if bodies:  # (a body's key its frame's too)
            keys = [(body._model_instance._value, body._name) for body in bodies]
            names["RigidBody"].update(zip(keys, bodies, strict=True))
            names["Frame"].update(zip(keys, [body._body_frame for body in bodies], strict=True))
            self._bodies += bodies
            self._body_instances += [key[0] for key in keys]
            self._inertia_rows += [body._inertia_row for body in bodies]
            next_index["_bodies"] += len(bodies)
        if frames:
            self._frames += frames
            next_index["_frames"] += len(frames)
        if offset_frames:
            keys = [(frame._model_instance._value, frame._name) for frame in offset_frames]
            names["Frame"].update(zip(keys, offset_frames, strict=True))
            self._offset_frames += [frame._ordinal for frame in offset_frames]
            self._pose_rows += [frame._pose_row for frame in offset_frames]
        if joints:
            keys = [(joint._model_instance._value, joint._name) for joint in joints]
            names["Joint"].update(zip(keys, joints, strict=True))
            self._joints += joints
            a = [joint._frame_on_parent._body._index._value for joint in joints]
            b = [joint._frame_on_child._body._index._value for joint in joints]
            self._joint_rows += [
                (i, k, joint._nq, joint._nv, key[0], joint._jtype)
                for i, k, joint, key in zip(a, b, joints, keys, strict=True)
            ]
            ends = [(i, k) if i <= k else (k, i) for i, k in zip(a, b, strict=True)]  # (_ends)
            self._joint_between.update(zip(ends, joints, strict=True))
            next_index["_joints"] += len(joints)
        if actuators:
            keys = [(actuator._model_instance._value, actuator._name) for actuator in actuators]
            names["JointActuator"].update(zip(keys, actuators, strict=True))
            self._actuators += actuators
            next_index["_actuators"] += len(actuators)

    def _add_bodies_in_rows(self, names, model_instance, inertia_rows):
        """Makes and adds the bodies RigidBody._in_rows makes of ``names``, ``model_instance``
        (a ModelInstanceIndex) and ``inertia_rows``, each with its body frame, as AddRigidBody
        adds them in this order, and returns them (a reader's bulk entry point for a document's
        links: each body made in its place in this plant, the plant's lists and name maps
        extended by C iterators, no Python step per body after its making). The caller
        guarantees AddRigidBody's checks, as _add_checked's: the plant not finalized,
        ``model_instance`` this plant's and not World's, ``names`` distinct non-empty strs that
        no body or frame of the instance has."""
        n = len(names)
        _, body_indices, body_ordinals = self._places("_bodies", n)
        _, frame_indices, frame_ordinals = self._places("_frames", n)
        places = (self, body_indices, frame_indices, body_ordinals, frame_ordinals)
        bodies = RigidBody._in_rows(names, model_instance, inertia_rows, places)
        self._add_placed(bodies, list(map(_BODY_FRAME, bodies)))
        return bodies

    def _add_joints_in_rows(
        self, frame_names, parents, pose_rows, classes, names, children, axes, limit_rows,
        dampings,
    ):  # fmt: skip
        """Makes and adds, as AddFrame then AddJoint add them in this order, for each k: a
        FixedOffsetFrame ``frame_names[k]`` on the body frame of ``parents[k]`` (a RigidBody) at
        the pose row ``pose_rows[k]``, in the model instance of ``children[k]`` (a RigidBody)
        (FixedOffsetFrame._in_rows); then a joint ``names[k]`` of class ``classes[k]`` from
        that frame to the body frame of ``children[k]``: a RevoluteJoint or PrismaticJoint of
        ``axes[k]``, ``limit_rows[k]`` and ``dampings[k]`` (LimitedSingleDofJoint._all_checked
        takes them), or a WeldJoint of X_FM the identity (those three None). Returns (the
        frames, the joints). (A reader's bulk entry point for a document's joints, as URDF's
        are: each element made in its place in this plant, the plant's lists, name maps and
        joint rows extended by C iterators, no Python step per element after its making.)
        The caller guarantees AddFrame's and AddJoint's checks, as _add_checked's: the plant
        not finalized, the bodies this plant's, the names distinct and free among the
        instance's frames and joints, each joint between two distinct bodies with no joint
        between them, no two between the same bodies."""
        frames = FixedOffsetFrame._in_rows(
            frame_names,
            list(map(_BODY_FRAME, parents)),
            pose_rows,
            list(map(_MODEL_INSTANCE, children)),
            self._places("_frames", len(names)),
        )
        child_frames = list(map(_BODY_FRAME, children))
        _, indices, ordinals = self._places("_joints", len(names))
        moving = [k for k, cls in enumerate(classes) if cls is not WeldJoint]
        arguments = (classes, names, frames, child_frames, axes, limit_rows, dampings)
        if len(moving) == len(names):
            joints = LimitedSingleDofJoint._all_checked(*arguments, (self, indices, ordinals))
        else:  # (welds, made each, in their places)
            select = [[seq[k] for k in moving] for seq in (*arguments, indices, ordinals)]
            made = iter(LimitedSingleDofJoint._all_checked(*select[:7], (self, *select[7:])))
            joints = []
            for cls, name, frame, child_frame, index, ordinal in zip(
                classes, names, frames, child_frames, indices, ordinals, strict=True
            ):
                if cls is WeldJoint:
                    joint = WeldJoint(name, frame, child_frame, RigidTransform())
                    joint._plant, joint._index, joint._ordinal = self, index, ordinal
                else:
                    joint = next(made)
                joints.append(joint)
        self._add_placed(frames=frames, offset_frames=frames, joints=joints)
        return frames, joints

    def AddFrame(self, frame):
        """Adds a FixedOffsetFrame (its parent frame must be in this plant); returns it."""
        if self._is_finalized:
            self._throw_if_tree_finalized("frames")
        if not isinstance(frame, FixedOffsetFrame):
            raise TypeError(f"AddFrame(): expected a FixedOffsetFrame, got {frame!r}")
        mi = frame._model_instance
        if type(mi) is not ModelInstanceIndex or not 0 <= mi._value < len(self._instance_names):
            self._check_instance(mi)
        key = (mi._value, frame._name)
        names = self._names["Frame"]
        if key in names:
            self._check_name_free("Frame", "frame", mi, frame._name)
        if frame._plant is not None:
            raise RuntimeError(f"AddFrame(): frame '{frame.name()}' was already added to a plant")
        parent = frame._parent_frame
        if parent._plant is not self:
            raise RuntimeError(
                f"AddFrame(): the parent frame '{parent.name()}' of frame '{frame.name()}' is not "
                "part of this MultibodyPlant"
            )
        names[key] = frame
        self._add_frame_unchecked(frame)
        return frame

    @overloads("joint")
    def AddJoint(self, joint, *args, **kwargs):
        """Adds ``joint`` (a Joint whose frames are in this plant) and returns it.

        Also, as C++'s ``AddJoint<JointType>``: ``AddJoint(JointType, name, parent, X_PF,
        child, X_BM, *joint_args)`` makes the joint between bodies ``parent`` and ``child``;
        a pose given (not None) adds a FixedOffsetFrame ``{name}_parent`` / ``{name}_child``
        at it, None uses the body frame.
        """
        if isinstance(joint, type) and issubclass(joint, Joint):
            return self._add_joint_between_bodies(joint, *args, **kwargs)
        if args or kwargs:
            raise TypeError("AddJoint(): expected a Joint, or a joint type and its arguments")
        if self._is_finalized:
            self._throw_if_finalized("AddJoint")
        if not isinstance(joint, Joint):
            raise TypeError(f"AddJoint(): expected a Joint, got {joint!r}")
        parent_frame, child_frame = joint._frame_on_parent, joint._frame_on_child
        parent, child = parent_frame._body, child_frame._body
        if parent._plant is not self or child._plant is not self:
            raise RuntimeError(
                f"AddJoint(): can't add joint {joint.name()} because bodies {parent.name()} and "
                f"{child.name()} are from different MultibodyPlants."
            )
        if parent_frame._plant is not self or child_frame._plant is not self:
            frame = parent_frame if parent_frame._plant is not self else child_frame
            raise RuntimeError(
                f"AddJoint(): the frame '{frame.name()}' of joint '{joint.name()}' must be "
                "added to this plant (AddFrame) first"
            )
        if parent is child:
            raise RuntimeError(
                f"AddJoint(): joint {joint.name()} would connect body {parent.name()} to itself."
            )
        names, key = self._names["Joint"], (joint._model_instance._value, joint._name)
        if key in names:
            self._check_name_free("Joint", "joint", joint._model_instance, joint._name)
        a, b = parent._index._value, child._index._value
        ends = (a, b) if a <= b else (b, a)  # (_ends)
        if ends in self._joint_between:
            self._check_no_joint_between(joint)
        names[key] = joint
        self._joint_rows.append((a, b, joint._nq, joint._nv, key[0], joint._jtype))
        self._add_element("_joints", joint)
        self._joint_between[ends] = joint
        return joint

    def RemoveJoint(self, joint):
        """Removes ``joint`` (before Finalize()). Its index is not given again; references to
        it become invalid. RuntimeError, as Drake's, if the plant has user-added force elements
        or constraints, if an actuator acts on the joint (remove it first), once finalized, or
        if the joint is not this plant's."""
        if not isinstance(joint, Joint):
            raise TypeError(f"RemoveJoint(): expected a Joint, got {joint!r}")
        index = -1 if joint._index is None else int(joint._index)
        if len(self._force_elements) > 1:
            raise RuntimeError(
                f"RemoveJoint: This plant has {len(self._force_elements) - 1} user-added force "
                "elements. This plant must have 0 user-added force elements in order to remove "
                f"joint with index {index}."
            )
        if self.num_constraints():
            raise RuntimeError(
                f"RemoveJoint: This plant has {self.num_constraints()} user-added "
                "constraints. This plant must have 0 user-added constraints in order to remove "
                f"joint with index {index}."
            )
        dependents = [a for a in self._actuators if a.joint() is joint]
        if dependents:
            listed = ", ".join(
                f"JointActuator(name: {a.name()}, index: {int(a.index())})" for a in dependents
            )
            raise RuntimeError(
                f"RemoveJoint: joint with index {index} has the following dependent model "
                f"elements which must be removed prior to joint removal: [{listed}]."
            )
        self._throw_if_finalized("RemoveJoint")
        self._check_owned(joint)
        del self._joint_rows[joint._ordinal]
        self._remove_element("_joints", "Joint", joint)
        del self._joint_between[_ends(joint)]

    def _check_owned(self, element):
        if element._plant is not self:
            raise RuntimeError(
                "This multibody element does not belong to the supplied MultibodyTree."
            )

    def _check_no_joint_between(self, joint):
        """RuntimeError (Drake's) if another joint already connects ``joint``'s two bodies."""
        other = self._joint_between.get(_ends(joint))
        if other is None:
            return

        def described(j):
            return (
                f"joint '{j.name()}' (model instance {int(j.model_instance())}) "
                f"connecting link '{j.parent_body().name()}' to link '{j.child_body().name()}'"
            )

        raise RuntimeError(
            f"AddJoint(): This LinkJointGraph already has {described(other)}. Therefore "
            f"adding {described(joint)} is not allowed."
        )

    def _add_joint_between_bodies(
        self, joint_type, name, parent, X_PF, child, X_BM, *args, **kwargs
    ):
        """C++'s AddJoint<JointType>(name, parent, X_PF, child, X_BM, ...). Nothing is added
        unless the joint can be."""
        if self._is_finalized:
            self._throw_if_finalized("AddJoint")
        if type(parent) is not RigidBody or type(child) is not RigidBody:
            for body, suffix in ((parent, "parent"), (child, "child")):
                if not isinstance(body, RigidBody):
                    raise TypeError(f"AddJoint(): {suffix} must be a RigidBody, got {body!r}")
        # Both frames go in the joint's (the child's) model instance, as in Drake.
        instance, names = child._model_instance, self._names
        F = M = None  # (the new frames, if any)
        if X_PF is not None:
            F = self._new_joint_frame(f"{name}_parent", parent._body_frame, X_PF, instance)
        if X_BM is not None:
            M = self._new_joint_frame(f"{name}_child", child._body_frame, X_BM, instance)
        if (instance._value, name) in names["Joint"]:
            self._check_name_free("Joint", "joint", instance, name)
        joint = joint_type(
            name, parent._body_frame if F is None else F, child._body_frame if M is None else M,
            *args, **kwargs,
        )  # fmt: skip
        if F is not None:
            self.AddFrame(F)
        if M is not None:
            self.AddFrame(M)
        return self.AddJoint(joint)

    def _new_joint_frame(self, name, body_frame, X, instance):
        """The FixedOffsetFrame ``name`` at X on ``body_frame`` that AddJoint<JointType> adds
        (not yet added: RuntimeError if the name is taken)."""
        if type(X) is RigidTransform:  # (the constructor's checks: name a str, not "")
            frame = FixedOffsetFrame._new(name, body_frame, X, instance)
        else:
            frame = FixedOffsetFrame(name, body_frame, X, instance)
        if (instance._value, name) in self._names["Frame"]:
            self._check_name_free("Frame", "frame", instance, name)
        return frame

    def WeldFrames(self, frame_on_parent_F, frame_on_child_M, X_FM=None):
        """Welds frame M to frame F at the pose X_FM (identity by default) with a WeldJoint
        named ``{F.name()}_welds_to_{M.name()}``; returns the joint."""
        if self._is_finalized:
            self._throw_if_finalized("AddJoint")
        F, M = frame_on_parent_F, frame_on_child_M
        if X_FM is None and isinstance(F, Frame) and isinstance(M, Frame):  # (the common case)
            if F._body is not M._body:  # (name(), body(): their fields)
                return self.AddJoint(WeldJoint._at_identity(f"{F._name}_welds_to_{M._name}", F, M))
        name = f"{F.name()}_welds_to_{M.name()}"
        if F.body() is M.body():
            raise RuntimeError(
                f"AddJoint(): joint {name} would connect body {F.body().name()} to itself."
            )
        return self.AddJoint(WeldJoint(name, F, M, RigidTransform() if X_FM is None else X_FM))

    def AddJointActuator(self, name, joint, effort_limit=math.inf):
        """Adds an actuator ``name`` on the single-dof ``joint``; returns it."""
        if not isinstance(joint, Joint):
            raise TypeError(f"AddJointActuator(): joint must be a Joint, got {joint!r}")
        if joint.num_velocities() != 1:
            raise RuntimeError(
                f"Calling AddJointActuator with joint {joint.name()} failed -- this joint has "
                f"{joint.num_velocities()} degrees of freedom, and MultibodyPlant currently only "
                "supports actuators for single degree-of-freedom joints. See "
                "https://stackoverflow.com/q/71477852/9510020 for the common workarounds."
            )
        self._check_name_free("JointActuator", "joint actuator", joint.model_instance(), name)
        self._throw_if_tree_finalized("actuators")
        actuator = JointActuator(name, joint, effort_limit)
        self._register_name("JointActuator", "joint actuator", actuator)
        self._add_element("_actuators", actuator)
        actuator._input_start = actuator._ordinal  # (actuators have one input each)
        return actuator

    def RemoveJointActuator(self, actuator):
        """Removes ``actuator`` (before Finalize()). Its index is not given again; references
        to it become invalid; the actuators after it move up one place in u. RuntimeError, as
        Drake's, once finalized or if the actuator is not this plant's."""
        if not isinstance(actuator, JointActuator):
            raise TypeError(f"RemoveJointActuator(): expected a JointActuator, got {actuator!r}")
        self._throw_if_finalized("RemoveJointActuator")
        self._check_owned(actuator)
        self._remove_element("_actuators", "JointActuator", actuator)
        for a in self._actuators:
            a._input_start = a._ordinal

    def AddForceElement(self, force_element):
        """Adds ``force_element``; returns it. (A second UniformGravityFieldElement raises.)"""
        self._throw_if_finalized("AddForceElement")
        if not isinstance(force_element, ForceElement):
            raise TypeError(f"AddForceElement(): expected a ForceElement, got {force_element!r}")
        if isinstance(force_element, UniformGravityFieldElement):
            raise RuntimeError(
                "This model already contains a gravity field element. Only one gravity field "
                "element is allowed per model."
            )
        if force_element._plant is not None:
            raise RuntimeError("AddForceElement(): this force element was already added")
        self._add_force_element(force_element)
        return force_element

    def _add_force_element(self, force_element):
        self._add_element("_force_elements", force_element)

    def gravity_field(self):
        """The plant's UniformGravityFieldElement."""
        return self._gravity_field

    def mutable_gravity_field(self):
        """The plant's UniformGravityFieldElement, to modify."""
        return self._gravity_field

    def is_gravity_enabled(self, model_instance):
        """True if gravity acts on the bodies of ``model_instance``."""
        return self._gravity_field.is_enabled(model_instance)

    def set_gravity_enabled(self, model_instance, is_enabled):
        """Enables or disables gravity for ``model_instance``; only before Finalize()."""
        self._throw_if_finalized("set_gravity_enabled")
        self._gravity_field.set_enabled(model_instance, is_enabled)

    # ---- Finalize ------------------------------------------------------------------------
    def Finalize(self):
        """Builds the topology: adds floating joints to bodies without an inboard joint,
        numbers the mobilized bodies and assigns q and v; declares state, parameters and
        ports. Construction methods raise afterwards."""
        if self._is_finalized:
            raise RuntimeError("MultibodyTreeSystem::Finalize(): repeated calls not allowed.")
        with paused_collection():  # (a model's ports, tables and engine: many objects)
            self._finalize()

    def _finalize(self):
        """Finalize's steps (the collector paused)."""
        checkpoint = self._checkpoint(elements_only=True)
        try:
            topology = self._build_topology()
        except Exception:
            self._rollback(checkpoint)
            raise
        self._build_flat_model(*topology)
        self._engine = Engine(self)
        self._finalize_geometry()
        self._finalize_contact()
        self._is_finalized = True
        nq, nv = self._nq, self._nv
        if self._time_step > 0:
            self.DeclareDiscreteState(np.zeros(nq + nv))
            self._declare_discrete_update()
        else:
            self.DeclareContinuousState(nq, nv, 0)
        self.DeclareAbstractParameter(self._default_parameters())
        self._declare_ports()
        self._finalize_constraints()

    # ---- transactions ----------------------------------------------------------------------
    _ELEMENT_LISTS = (
        ("_bodies", "RigidBody"),
        ("_frames", "Frame"),
        ("_joints", "Joint"),
        ("_actuators", "JointActuator"),
        ("_force_elements", None),
    )

    def _checkpoint(self, elements_only=False):
        """What construction has added so far, for ``_rollback`` (before Finalize only); if
        ``elements_only`` (Finalize's: what follows adds elements only), the model instances,
        floating poses, gravity switches and constraints are the plant's own, not copies."""
        same = elements_only
        return {
            "sizes": {attr: len(getattr(self, attr)) for attr, _ in self._ELEMENT_LISTS},
            "next_index": dict(self._next_index),
            "instance_names": self._instance_names if same else list(self._instance_names),
            "default_floating_poses": (
                self._default_floating_poses if same else dict(self._default_floating_poses)
            ),
            "gravity_disabled": (
                self._gravity_field._disabled if same else set(self._gravity_field._disabled)
            ),
            "constraints": {
                kind: getattr(self, kind) if same else dict(getattr(self, kind))
                for kind in CONSTRAINT_KINDS
            },
        }

    def _rollback(self, checkpoint):
        """Removes every element added since ``checkpoint`` (a parser's model that failed
        to load, or a failed Finalize): the plant is left as it was then."""
        for attr, kind in self._ELEMENT_LISTS:
            elements = getattr(self, attr)
            for element in elements[checkpoint["sizes"][attr] :]:
                if kind is not None:  # (body frames are in _frames too)
                    del self._names[kind][(int(element.model_instance()), element.name())]
                element._plant = element._index = element._ordinal = None
            del elements[checkpoint["sizes"][attr] :]
        sizes = checkpoint["sizes"]
        del self._joint_rows[sizes["_joints"] :]
        del self._body_instances[sizes["_bodies"] :], self._inertia_rows[sizes["_bodies"] :]
        kept = bisect.bisect_left(self._offset_frames, sizes["_frames"])
        del self._offset_frames[kept:], self._pose_rows[kept:]
        self._next_index = checkpoint["next_index"]
        self._joint_between = {k: j for k, j in self._joint_between.items() if j._plant is self}
        self._instance_names[:] = checkpoint["instance_names"]
        self._instance_indices = {name: i for i, name in enumerate(self._instance_names)}
        self._default_floating_poses = checkpoint["default_floating_poses"]
        self._gravity_field._disabled = checkpoint["gravity_disabled"]
        for kind, constraints in checkpoint["constraints"].items():
            setattr(self, kind, constraints)

    def _build_topology(self):
        """Adds the floating joints, builds the forest of mobilized bodies (checking it) and
        adds the mobilizer frames; returns (the rows of the mobods after World (build_forest's),
        the row of each one's joint (_joint_rows' nq, nv, model instance and type code), the
        single-dof mobods' constants: _single_dof_constants)."""
        joints = self._joints
        floating_size = (QuaternionFloatingJoint._nq, QuaternionFloatingJoint._nv)
        rows, bases = build_forest(len(self._bodies), self._joint_rows, floating_size)
        for b in bases:  # (the floating joints build_forest numbered, in its order)
            self._add_floating_joint(self._bodies[b])
        check_reversed_joints(joints, rows[rows[:, 3] != 0, 1].tolist(), self._instance_names)
        joint_rows = np.fromiter(
            itertools.chain.from_iterable(self._joint_rows), dtype=np.int64, count=6 * len(joints)
        ).reshape(-1, 6)[rows[:, 1], 2:]  # (not the ends)
        codes = joint_rows[:, 3]
        constants = self._single_dof_constants(rows, codes)
        welds = np.flatnonzero(codes == _joint_types.WELD)
        X_FM = _X_rows([joints[j]._X_FM for j in rows[welds, 1].tolist()])
        welds = (welds[non_identity_poses(X_FM)] + 1).tolist()
        self._add_mobilizer_frames(rows, constants[2], welds)
        return rows, joint_rows, constants

    def _single_dof_constants(self, rows, codes):
        """(mobods, jparam, framed, z_turns) of the mobods of single-dof joints (revolute,
        prismatic, screw; of ``rows`` and their joints' type ``codes``): their rows of the
        topology's jparam (the axis Drake mobilizes about, mobilizer_axes, a revolute's
        turned to z off the coordinate axes; the screw pitch), the revolute and prismatic
        mobods whose mobilizer axis u has no element exactly 1.0 ((their list, u's rows):
        mobilizer_frames) and the revolute mobods turned to z ({mobod: X_JZ}: z_turns)."""
        single = np.flatnonzero(
            (codes == _joint_types.REVOLUTE)
            | (codes == _joint_types.PRISMATIC)
            | (codes == _joint_types.SCREW)
        )
        kinds = codes[single]
        joints = [self._joints[j] for j in rows[single, 1].tolist()]
        axes = _joined([j._axis for j in joints]).reshape(-1, 3)
        jparam = np.zeros((len(single), 4))  # (a pitch 0.0 but for screws)
        axial = np.flatnonzero(kinds != _joint_types.SCREW)
        if len(axial) < len(single):
            screws = np.flatnonzero(kinds == _joint_types.SCREW).tolist()
            jparam[screws, 3] = [joints[i]._pitch for i in screws]
        reversed_joint = rows[single[axial], 3] != 0
        mobilized, coordinate = mobilizer_axes(axes[axial], reversed_joint)
        mobods = single + 1
        if coordinate.all():  # (no mobilizer frames, no revolute turned: every axis ±e_i)
            axes[axial] = mobilized
            jparam[:, :3] = axes
            return mobods, jparam, ([], np.zeros((0, 3))), {}
        off = axial[~coordinate]  # (u: the axis, negated where reversed)
        u = np.where(reversed_joint[~coordinate, None], -axes[off], axes[off])
        framed = (mobods[off].tolist(), u)
        axes[axial] = mobilized
        revolute = np.flatnonzero(kinds == _joint_types.REVOLUTE)
        turned, turns = revolute[revolute_turns(axes[revolute])], {}
        if turned.size:
            turns = dict(zip(mobods[turned].tolist(), z_turns(axes[turned]), strict=True))
            axes[turned] = (0.0, 0.0, 1.0)
        jparam[:, :3] = axes
        return mobods, jparam, framed, turns

    def _add_mobilizer_frames(self, rows, framed, welds):
        """The ephemeral FixedOffsetFrames Drake adds for some mobilizers (see _topology),
        made at once in their places with their poses in the rows of one read-only array
        (FixedOffsetFrame._in_rows; R_PF a rotation matrix, checked) and added at once
        (_add_placed); if a name is taken (or two of them are one), added one by one as
        AddFrame adds them: the error of the first taken (Finalize's rollback undoes them)."""
        names, parents, instances, poses = mobilizer_frames(rows, self._joints, framed, welds)
        if not names:
            return
        n = len(names)
        X_PF = _joined(poses).reshape(n, 12)
        X_PF.flags.writeable = False
        frames = FixedOffsetFrame._in_rows(
            names, parents, list(zip(repeat(X_PF), range(n))), instances,
            self._places("_frames", n), ephemeral=True,
        )  # fmt: skip
        keys = {(mi._value, name) for name, mi in zip(names, instances, strict=True)}
        if len(keys) == n and self._names["Frame"].keys().isdisjoint(keys):
            self._add_placed(frames=frames, offset_frames=frames)
            return
        for frame in frames:
            self._register_name("Frame", "frame", frame)
            self._add_frame_unchecked(frame)

    def _add_floating_joint(self, body):
        name = body.name()
        while (int(body.model_instance()), name) in self._names["Joint"]:
            name = "_" + name
        joint = QuaternionFloatingJoint(name, self.world_frame(), body.body_frame())
        pose = self._default_floating_poses.get(int(body.index()))
        if pose is not None:
            joint.SetDefaultPose(pose)
        self._register_name("Joint", "joint", joint)
        joint._ephemeral = True
        self._joint_rows.append(_joint_row(joint))
        self._add_element("_joints", joint)

    def _build_flat_model(self, rows, joint_rows, constants):
        """The plant's Topology (the tree rows and joint constants the kernels read, the index
        maps) from _build_topology's results; the joints' q and v slots and the bodies'
        mobods."""
        codes = joint_rows[:, 3]
        n = len(rows) + 1
        t = self._topology = Topology(n)
        bodies, joints = self._bodies, self._joints
        if n - 1 != len(joints):  # (each mobod after World has its own joint)
            joint = joints[np.setdiff1d(np.arange(len(joints)), rows[:, 1])[0]]
            raise AssertionError(f"joint {joint.name()} was not mobilized")
        inboard = t.inboard_joint_of_body
        bodies[0]._mobod = 0
        for k, b, j, q_start, v_start in zip(
            range(1, n), *rows[:, (0, 1, 4, 5)].T.tolist(), strict=True
        ):
            joint = inboard[b] = joints[j]
            joint._q_start = q_start
            joint._v_start = v_start
            bodies[b]._mobod = k
        later = np.arange(1, n)
        tree = t.tree = np.zeros((n, 6), dtype=np.int64)  # (World's row: a weld, all zeros)
        tree[1:] = rows[:, (2, 1, 4, 5, 3, 0)]  # (Mobod's fields in TREE_COLUMNS' order)
        tree[1:, 1] = codes
        single, jparam, _, t.z_turns = constants
        t.jparam = np.zeros((n, 4))
        t.jparam[single] = jparam
        t.mobod_of_body = np.zeros(n, dtype=np.int64)
        t.mobod_of_body[rows[:, 0]] = later
        t.mobod_of_joint = np.empty(len(joints), dtype=np.int64)
        t.mobod_of_joint[rows[:, 1]] = later
        t.mobod_joint = np.concatenate(([-1], rows[:, 1]))  # (World's: −1)
        t.mobod_instance = np.array(self._body_instances, dtype=np.int64)[tree[:, 5]]
        # (per mobod after World, q and v in this order: its joint's model instance, nq, nv)
        nq, nv, instance = joint_rows[:, 0], joint_rows[:, 1], joint_rows[:, 2]
        self._nq, self._nv = int(nq.sum()), int(nv.sum())
        # (an actuator's input start is its ordinal: one input each, AddJointActuator)
        t.actuator_input = np.arange(len(self._actuators))
        t.actuator_v = np.array([a._joint._v_start for a in self._actuators], dtype=np.int64)
        rpy = np.flatnonzero(
            (codes == _joint_types.BALL_RPY) | (codes == _joint_types.RPY_FLOATING)
        )
        t.rpy_pitch = rows[rpy[np.argsort(rows[rpy, 1], kind="stable")], 4] + 1  # (joint order)
        self._index_model_instances(instance, nq, nv)

    def _index_model_instances(self, joint_instance, nq, nv):
        """Per model instance: its q, v, x = [q; v] and actuation indices, in increasing order,
        from the model instance, nq and nv of the joint of each mobod after World (arrays: q and
        v are assigned in mobod order) and the actuators (one input each, in their order)."""
        count = len(self._instance_names)
        actuators = self._actuators

        def q_owner():
            return np.repeat(joint_instance, nq)

        def v_owner():
            return np.repeat(joint_instance, nv)

        def u_owner():
            return np.array([a._model_instance._value for a in actuators], np.int64)

        self._instance_q = _InstanceSlots(q_owner, count)
        self._instance_v = _InstanceSlots(v_owner, count)
        self._instance_x = _InstanceSlots(lambda: np.concatenate((q_owner(), v_owner())), count)
        self._instance_u = _InstanceSlots(u_owner, count)

    def _default_parameters(self):
        """The PlantParameters of the elements' defaults. Those of the bodies, frames and
        joints (spatial inertias, poses, damping) cannot change once the plant is finalized
        (no setter of them then): read from the elements once, at Finalize
        (_element_defaults), and copied at each later call (CreateDefaultContext's)."""
        fixed = self._element_defaults_read
        if fixed is None:
            fixed = self._element_defaults_read = self._element_defaults()
        mass, com, G, X_PF, damping = (a.copy() for a in fixed)
        actuators = self._actuators  # (their default rotor inertias and gear ratios)
        rotor = np.array([a._rotor_inertia for a in actuators], dtype=float)
        gear = np.array([a._gear_ratio for a in actuators], dtype=float)
        locked = np.zeros(len(self._joints), dtype=bool)
        force_elements = [e._default_parameters() for e in self._force_elements]
        return PlantParameters(
            mass, com, G, X_PF, damping, rotor, gear, locked, force_elements,
            distance_constraints=dict(self._distance_constraints),
        )  # fmt: skip

    def _element_defaults(self):
        """(mass, com, G, X_PF, damping) of the PlantParameters of the elements' defaults
        (finalized plants only: damping in v order)."""
        bodies = self._bodies
        inertias = _in_rows(self._inertia_rows, 13, _fill_inertias, bodies)
        mass = np.ascontiguousarray(inertias[:, 0])
        com = np.ascontiguousarray(inertias[:, 1:4])
        G = np.ascontiguousarray(inertias[:, 4:]).reshape(len(bodies), 3, 3)
        # X_PF per frame: [R; pᵀ], the identity for body frames; the others' stacked once.
        frames, offset = self._frames, self._offset_frames
        X_PF = np.zeros((len(frames), 4, 3))
        X_PF[:, :3] = np.eye(3)
        if offset:
            poses = _in_rows(self._pose_rows, 12, _fill_poses, frames, offset)
            X_PF[_run(offset)] = poses.reshape(-1, 4, 3)
        # (the joints' damping in v order: that of their mobods, after World's)
        joints = self._joints
        by_v = [joints[j]._default_damping for j in self._topology.mobod_joint[1:].tolist()]
        damping = _joined([np.zeros(0), *by_v])
        return mass, com, G, X_PF, damping

    def SetDefaultParameters(self, context, parameters):
        """Sets the plant's parameters to the elements' current defaults."""
        if not self._is_finalized:
            raise RuntimeError(
                "MultibodyPlant cannot SetDefaultParameters or CreateDefaultContext until after "
                "MultibodyPlant::Finalize() has been called."
            )
        self.ValidateContext(context)
        parameters.get_mutable_abstract_parameter(0).set_value(self._default_parameters())

    def AllocateContext(self):
        if not self._is_finalized:
            raise RuntimeError(
                "MultibodyPlant cannot SetDefaultParameters or CreateDefaultContext until after "
                "MultibodyPlant::Finalize() has been called."
            )
        return super().AllocateContext()

    # ---- for the elements ----------------------------------------------------------------
    def _scoped_name(self, element):
        from mallard.multibody.tree._scoped_name import ScopedName

        return ScopedName(self._instance_names[int(element.model_instance())], element.name())

    def _inboard_joint(self, body):
        """The joint mobilizing ``body`` (after Finalize), or None for World."""
        return self._topology.inboard_joint_of_body[int(body.index())]

    def _check_frame(self, frame, name="frame"):
        if not isinstance(frame, Frame):
            raise TypeError(f"{name} must be a Frame, got {type(frame).__name__}")
        if frame._plant is not self:
            raise RuntimeError(f"Frame '{frame.name()}' is not part of this MultibodyPlant")
        return frame
