"""Drake's model directives (pydrake.multibody.parsing's ModelDirectives and its directive
types), their YAML loading (``*.dmd.yaml``) and FlattenModelDirectives.

A loaded directive remembers the file and line it was read from (``_where``), so that the
errors of processing it name them; YAML errors name file and line too. Needs PyYAML (the
``yaml`` extra)."""

import dataclasses
import functools
import logging
import math
import os
import re

import numpy as np

from mallard.common.schema import Rotation, Transform
from mallard.math import RigidTransform
from mallard.multibody.parsing import _yaml_json

LOGGER = logging.getLogger("mallard.parsing")


def _where_field():
    return dataclasses.field(default=None, repr=False, compare=False)


@dataclasses.dataclass
class AddWeld:
    """Welds the frame ``child`` to the frame ``parent`` at ``X_PC`` (a Transform without
    base frame; identity if None)."""

    parent: str = ""
    child: str = ""
    X_PC: Transform = None
    _where: tuple = _where_field()

    def IsValid(self):
        return _valid(self._problem())

    def _problem(self):
        """What makes it invalid (None if nothing)."""
        if not self.parent:
            return "add_weld: `parent` must be non-empty"
        if not self.child:
            return "add_weld: `child` must be non-empty"
        if self.X_PC is not None and self.X_PC.base_frame:
            return (
                "add_weld: `X_PC` must not specify a `base_frame`; the pose is always in the "
                "parent frame."
            )
        return None


@dataclasses.dataclass
class AddModel:
    """Adds the model of ``file`` (a URI) as the model instance ``name``, with default
    positions of its joints (name -> positions) and default poses of its free bodies (body
    name -> Transform, whose base frame is "world" if None)."""

    file: str = ""
    name: str = ""
    default_joint_positions: dict = dataclasses.field(default_factory=dict)
    default_free_body_pose: dict = dataclasses.field(default_factory=dict)
    _where: tuple = _where_field()

    def IsValid(self):
        return _valid(self._problem())

    def _problem(self):
        if not self.file:
            return "add_model: `file` must be non-empty"
        if not self.name:
            return "add_model: `name` must be non-empty"
        return None


@dataclasses.dataclass
class AddModelInstance:
    """Adds an empty model instance ``name`` (a namespace for nested directives)."""

    name: str = ""
    _where: tuple = _where_field()

    def IsValid(self):
        return _valid(self._problem())

    def _problem(self):
        return None if self.name else "add_model_instance: `name` must be non-empty"


@dataclasses.dataclass
class AddFrame:
    """Adds the FixedOffsetFrame ``name`` at ``X_PF`` from its base frame (required)."""

    name: str = ""
    X_PF: Transform = dataclasses.field(default_factory=Transform)
    _where: tuple = _where_field()

    def IsValid(self):
        return _valid(self._problem())

    def _problem(self):
        if not self.name:
            return "add_frame: `name` must be non-empty"
        if not self.X_PF.base_frame:
            return "add_frame: `X_PF.base_frame` must be defined"
        return None


@dataclasses.dataclass
class AddCollisionFilterGroup:
    """A collision filter group ``name`` of bodies ``members`` and groups ``member_groups``
    (names relative to ``model_namespace``) that ignores collisions with the groups
    ``ignored_collision_filter_groups``."""

    name: str = ""
    model_namespace: str = None
    members: list = dataclasses.field(default_factory=list)
    member_groups: list = dataclasses.field(default_factory=list)
    ignored_collision_filter_groups: list = dataclasses.field(default_factory=list)
    _where: tuple = _where_field()

    def IsValid(self):
        return _valid(self._problem())

    def _problem(self):
        if not self.name:
            return "add_collision_filter_group: `name` must be non-empty"
        if not self.members and not self.member_groups:
            return (
                "add_collision_filter_group: at least one of `members` or `member_groups` "
                "must be non-empty"
            )
        return None


@dataclasses.dataclass
class AddDirectives:
    """Processes the directives of ``file`` (a URI), their names in ``model_namespace``."""

    file: str = ""
    model_namespace: str = None
    _where: tuple = _where_field()

    def IsValid(self):
        return _valid(self._problem())

    def _problem(self):
        return None if self.file else "add_directives: `file` must be non-empty"


_KINDS = {
    "add_model": AddModel,
    "add_model_instance": AddModelInstance,
    "add_frame": AddFrame,
    "add_weld": AddWeld,
    "add_collision_filter_group": AddCollisionFilterGroup,
    "add_directives": AddDirectives,
}
_KIND_NAMES = tuple(_KINDS)


@dataclasses.dataclass
class ModelDirective:
    """One directive: exactly one of its fields is set."""

    add_model: AddModel = None
    add_model_instance: AddModelInstance = None
    add_frame: AddFrame = None
    add_weld: AddWeld = None
    add_collision_filter_group: AddCollisionFilterGroup = None
    add_directives: AddDirectives = None

    def _fields(self):
        """The values of its fields, in _KINDS' order."""
        return (self.add_model, self.add_model_instance, self.add_frame, self.add_weld,
                self.add_collision_filter_group, self.add_directives)  # fmt: skip

    def IsValid(self):
        present = [item for item in self._fields() if item is not None]
        if len(present) != 1:
            return _invalid(
                "directive: Specify one of `add_model`, `add_model_instance`, `add_frame`, "
                "`add_collision_filter_group`, or `add_directives`"
            )
        return present[0].IsValid()

    def _item(self):
        """(kind, the directive) of the first field (in _KINDS' order) that is set."""
        for kind, item in zip(_KIND_NAMES, self._fields(), strict=True):
            if item is not None:
                return kind, item
        raise RuntimeError("directive: Specify one of its fields")


@dataclasses.dataclass
class ModelDirectives:
    """The directives of a ``.dmd.yaml`` document, in order."""

    directives: list = dataclasses.field(default_factory=list)

    def IsValid(self):
        return all(directive.IsValid() for directive in self.directives)


class ModelInstanceInfo:
    """What ProcessModelDirectives added for one ``add_model``: ``model_name``,
    ``model_path``, ``model_instance``, and the frames and pose of the weld whose child is in
    it (``parent_frame_name``, ``child_frame_name``, ``X_PC``: empty names and identity if none)."""

    def __init__(self):
        self.model_name = ""
        self.model_path = ""
        self.parent_frame_name = ""
        self.child_frame_name = ""
        self._X_PC = None  # (the identity, made when read: a weld sets most)
        self.model_instance = None

    @property
    def X_PC(self):
        if self._X_PC is None:
            self._X_PC = RigidTransform()
        return self._X_PC

    @X_PC.setter
    def X_PC(self, X_PC):
        self._X_PC = X_PC

    def __repr__(self):
        return (
            f"ModelInstanceInfo(model_name={self.model_name!r}, "
            f"model_instance={self.model_instance!r})"
        )


def _yaml():
    """PyYAML (the "yaml" extra), or ImportError saying how to install it."""
    from mallard.common.yaml import _yaml as load

    return load()


def _invalid(message):
    LOGGER.error(message)
    return False


def _valid(problem):
    """IsValid of a directive whose ``problem`` (its _problem()) is given: logged if any."""
    return True if problem is None else _invalid(problem)


# ---- YAML --------------------------------------------------------------------------------------
_STR = "tag:yaml.org,2002:str"
_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
# A plain decimal that PyYAML's constructors and float() read alike (no leading zero: YAML
# 1.1 reads "017" as octal), and finite (at most 301 digits, an exponent of 2).
_DECIMAL = re.compile(
    r"[-+]?(?:(?:0|[1-9][0-9]{0,150})(?:\.[0-9]{0,150})?|\.[0-9]{1,150})(?:[eE][-+]?[0-9]{1,2})?"
)


@functools.cache
def _loader(base):
    """PyYAML's loader class ``base`` (CSafeLoader, SafeLoader) with tables of its own: copies
    of PyYAML's YAML 1.1 resolvers and safe constructors (``resolver.Resolver``'s,
    ``constructor.SafeConstructor``'s), and no path resolvers. What a program adds to PyYAML's
    loaders (``yaml.add_implicit_resolver``, ``add_path_resolver``, ``add_constructor``),
    before or after mallard first reads directives, changes nothing of how it reads them (as
    pydrake's, read by yaml-cpp), and the memos of :func:`_resolver` stay right (with
    PyYAML's classes, a resolver added later was used for the values not seen yet only)."""
    yaml = _yaml()
    resolvers = yaml.resolver.Resolver.yaml_implicit_resolvers
    constructors = yaml.constructor.SafeConstructor

    class Loader(base):
        yaml_implicit_resolvers = {first: list(pairs) for first, pairs in resolvers.items()}
        yaml_path_resolvers = {}
        yaml_constructors = dict(constructors.yaml_constructors)
        yaml_multi_constructors = dict(constructors.yaml_multi_constructors)

    return Loader


def _loaders():
    """The loader classes _Reader tries in turn: libyaml's (~10x faster, memoizing) when
    PyYAML has it, then PyYAML's own, whose errors are reported."""
    yaml = _yaml()
    if yaml.__with_libyaml__:
        return _memoizing(_loader(yaml.CSafeLoader)), _loader(yaml.SafeLoader)
    return (_loader(yaml.SafeLoader),)


@functools.cache
def _resolver(loader_class):
    """``loader_class``'s (one of :func:`_loader`'s) tag resolver ``resolve(kind, value,
    implicit)`` memoized by functools.lru_cache (C): without path resolvers a node's tag
    depends only on its kind, value and implicit flags, and resolve reads only class
    attributes (the class serves as self), which do not change."""
    return functools.lru_cache(maxsize=4096)(functools.partial(loader_class.resolve, loader_class))


@functools.cache
def _plain_resolver(loader_class):
    """The tag of a plain scalar by ``loader_class``'s resolver, ``tag(value)``, memoized by
    value (lru_cache's one-argument key: C only)."""
    resolve = _resolver(loader_class)
    ScalarNode = _yaml().ScalarNode

    def tag(value):
        return resolve(ScalarNode, value, (True, False))

    return functools.lru_cache(maxsize=4096)(tag)


@functools.cache
def _plain_number(resolve):
    """``number(text)``: the float of a scalar of the JSON document (_yaml_json) that
    _Reader.scalar's common case reads as a number (a plain decimal that ``resolve``, a
    :func:`_plain_resolver`, resolves as float or int), else None; memoized by text (the
    resolution and the decimal's match once per text, in C after)."""

    def number(text):
        if type(text) is not str or text[0] == "'" or not _DECIMAL.fullmatch(text):
            return None
        tag = resolve(text)
        if tag == _FLOAT:
            return float(text)
        if tag == _INT:  # (as PyYAML reads it: "-0" is 0)
            return float(int(text))
        return None

    return functools.lru_cache(maxsize=4096)(number)


def _plain_tag():
    """:func:`_plain_resolver` of the loader that _Reader reads a valid document with."""
    yaml = _yaml()
    return _plain_resolver(_loader(yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader))


@functools.cache
def _memoizing(loader_class):
    """``loader_class`` (one of :func:`_loader`'s) whose resolver calls, made for every node
    it composes, stay in C: ``resolve`` memoized (_resolver), and
    ``descend_resolver``/``ascend_resolver`` (no-ops without path resolvers) replaced by C
    callables that do nothing. (libyaml's composer calls the three through the loader's
    attributes: Python calls cost most of its time.)"""
    resolve = _resolver(loader_class)

    class Loader(loader_class):
        def __init__(self, stream):
            super().__init__(stream)
            self.resolve = resolve
            self.descend_resolver = _IGNORE_TWO
            self.ascend_resolver = _IGNORE_NONE

    return Loader


_IGNORE_TWO = {}.get  # (f(a, b) -> None, in C)
_IGNORE_NONE = tuple  # (f() -> (), in C)


class _Fields:
    """The fields of the directives and of a Transform, read through a reader's primitives:
    ``mapping(node, what, names)`` ({field name: value node}), ``scalar(node, kind, what)``,
    ``vector(node, what, size=None)``, ``strings(node, what)``, ``named(node, what)`` ({name:
    value node} of any names) and ``rotation(node, what)``."""

    def transform(self, node, what):
        fields = self.mapping(node, f"{what} (a Transform)", ("base_frame", "translation",
                                                               "rotation"))  # fmt: skip
        base_frame = translation = rotation = None  # (absent: Transform's defaults)
        if "base_frame" in fields:
            base_frame = self.scalar(fields["base_frame"], str, f"{what}.base_frame")
        if "translation" in fields:
            translation = self.vector(fields["translation"], f"{what}.translation", 3)
        if "rotation" in fields:
            rotation = self.rotation(fields["rotation"], f"{what}.rotation")
        return Transform(base_frame, translation, rotation)

    def add_model(self, node):
        names = ("file", "name", "default_joint_positions", "default_free_body_pose")
        fields = self.mapping(node, "add_model", names)
        file = self.scalar(fields["file"], str, "add_model.file") if "file" in fields else ""
        name = self.scalar(fields["name"], str, "add_model.name") if "name" in fields else ""
        positions, poses = {}, {}  # (given: AddModel's factories not called)
        if "default_joint_positions" in fields:
            named = self.named(fields["default_joint_positions"], "default_joint_positions")
            positions = {
                k: self.vector(v, f"default_joint_positions.{k}") for k, v in named.items()
            }
        if "default_free_body_pose" in fields:
            named = self.named(fields["default_free_body_pose"], "default_free_body_pose")
            poses = {k: self.transform(v, f"default_free_body_pose.{k}") for k, v in named.items()}
        return AddModel(file, name, positions, poses)

    def add_model_instance(self, node):
        fields = self.mapping(node, "add_model_instance", ("name",))
        result = AddModelInstance()
        if "name" in fields:
            result.name = self.scalar(fields["name"], str, "add_model_instance.name")
        return result

    def add_frame(self, node):
        fields = self.mapping(node, "add_frame", ("name", "X_PF"))
        name = self.scalar(fields["name"], str, "add_frame.name") if "name" in fields else ""
        if "X_PF" not in fields:
            return AddFrame(name)
        return AddFrame(name, self.transform(fields["X_PF"], "add_frame.X_PF"))

    def add_weld(self, node):
        fields = self.mapping(node, "add_weld", ("parent", "child", "X_PC"))
        parent = self.scalar(fields["parent"], str, "add_weld.parent") if "parent" in fields else ""
        child = self.scalar(fields["child"], str, "add_weld.child") if "child" in fields else ""
        if "X_PC" not in fields:
            return AddWeld(parent, child)
        return AddWeld(parent, child, self.transform(fields["X_PC"], "add_weld.X_PC"))

    def add_collision_filter_group(self, node):
        names = ("name", "model_namespace", "members", "member_groups",
                 "ignored_collision_filter_groups")  # fmt: skip
        fields = self.mapping(node, "add_collision_filter_group", names)
        result = AddCollisionFilterGroup()
        for name in ("name", "model_namespace"):
            if name in fields:
                value = self.scalar(fields[name], str, f"add_collision_filter_group.{name}")
                setattr(result, name, value)
        for name in names[2:]:
            if name in fields:
                setattr(result, name, self.strings(fields[name], name))
        return result

    def add_directives(self, node):
        fields = self.mapping(node, "add_directives", ("file", "model_namespace"))
        result = AddDirectives()
        for name in ("file", "model_namespace"):
            if name in fields:
                setattr(result, name, self.scalar(fields[name], str, f"add_directives.{name}"))
        return result


class _Reader(_Fields):
    """Reads a YAML document into ModelDirectives, each error naming ``file`` and the line."""

    def __init__(self, file):
        self.file = file
        self.yaml = _yaml()

    def error(self, node, message):
        line = node.start_mark.line + 1 if node is not None else 1
        raise RuntimeError(f"{self.file}:{line}: error: {message}")

    def load(self, text):
        yaml = self.yaml

        # (a document libyaml's loader rejects is read again by PyYAML's, whose message is
        # reported)
        loaders = _loaders()
        for loader_class in loaders:
            loader = loader_class(text)
            self.loader = loader
            try:
                root = loader.get_single_node()
                break
            except yaml.YAMLError as e:
                if loader_class is not loaders[-1]:
                    continue
                mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
                line = mark.line + 1 if mark is not None else 1
                raise RuntimeError(f"{self.file}:{line}: error: {e}") from None
            finally:
                loader.dispose()
        result = ModelDirectives()
        if root is None:
            return result
        fields = self.mapping(root, "ModelDirectives", ("directives",))
        if "directives" in fields:
            items = fields["directives"]
            if not isinstance(items, yaml.SequenceNode):
                self.error(items, "`directives` must be a list")
            # (each checked valid as it is read: see directive)
            result.directives = [self.directive(item) for item in items.value]
        return result

    def mapping(self, node, what, names):
        """{field name: value node} of the mapping ``node``; an error for other keys."""
        yaml = self.yaml

        if not isinstance(node, yaml.MappingNode):
            self.error(node, f"Expected a mapping for {what}, got {self.describe(node)}")
        result = {}
        ScalarNode = yaml.ScalarNode
        for key, value in node.value:
            # (construct's common case inlined: this runs for every key)
            name = key.value if key.tag == _STR and type(key) is ScalarNode else self.construct(key)
            if name not in names:
                self.error(
                    key,
                    f"The key '{name}' is not a field of {what} (its fields are: "
                    f"{', '.join(names)})",
                )
            if name in result:
                self.error(key, f"The key '{name}' is given twice in {what}")
            result[name] = value
        return result

    def construct(self, node):
        """The Python value of ``node`` (a plain string without the loader's machinery)."""
        if node.tag == _STR and type(node) is self.yaml.ScalarNode:
            return node.value
        return self.loader.construct_object(node)

    @staticmethod
    def describe(node):
        return type(node).__name__.replace("Node", "").lower()

    def scalar(self, node, kind, what):
        yaml = self.yaml

        if kind is str and node.tag == _STR and type(node) is yaml.ScalarNode:
            return node.value  # (the common case: a plain string)
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, f"Expected a {kind.__name__} for {what}, got a {self.describe(node)}")
        if kind is float and _DECIMAL.fullmatch(node.value):  # (the common case)
            if node.tag == _FLOAT:
                return float(node.value)
            if node.tag == _INT:  # (as PyYAML reads it: "-0" is 0)
                return float(int(node.value))
        value = self.construct(node)
        if kind is str:
            if value is None:
                self.error(node, f"Expected a str for {what}, got null")
            return value if isinstance(value, str) else node.value
        if kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                self.error(node, f"Expected a number for {what}, got '{node.value}'")
            if not math.isfinite(value):
                self.error(node, f"{what} must be finite, got {node.value}")
            return float(value)
        raise AssertionError(kind)

    def vector(self, node, what, size=None):
        yaml = self.yaml

        if not isinstance(node, yaml.SequenceNode) or node.tag not in ("tag:yaml.org,2002:seq",):
            self.error(
                node,
                f"Expected a list of numbers for {what}, got {self.describe(node)} "
                "(mallard reads deterministic values only)",
            )
        values = np.array([self.scalar(item, float, what) for item in node.value])
        if size is not None and len(values) != size:
            self.error(node, f"Expected {size} numbers for {what}, got {len(values)}")
        return values

    def strings(self, node, what):
        yaml = self.yaml

        if not isinstance(node, yaml.SequenceNode):
            self.error(node, f"Expected a list of names for {what}, got a {self.describe(node)}")
        return [self.scalar(item, str, what) for item in node.value]

    def rotation(self, node, what):
        tag = node.tag
        if tag in ("!Identity", "tag:yaml.org,2002:map") and not getattr(node, "value", None):
            return Rotation(Rotation.Identity())
        if tag == "!Rpy" or tag == "tag:yaml.org,2002:map":
            fields = self.mapping(node, f"{what} (Rpy)", ("deg",))
            deg = self.vector(fields["deg"], f"{what}.deg", 3) if "deg" in fields else np.zeros(3)
            return Rotation(Rotation.Rpy(deg=deg))
        if tag == "!AngleAxis":
            fields = self.mapping(node, f"{what} (AngleAxis)", ("angle_deg", "axis"))
            value = Rotation.AngleAxis()
            if "angle_deg" in fields:
                value.angle_deg = self.scalar(fields["angle_deg"], float, f"{what}.angle_deg")
            if "axis" in fields:
                value.axis = self.vector(fields["axis"], f"{what}.axis", 3)
                if not np.linalg.norm(value.axis) > 0:
                    self.error(fields["axis"], f"{what}.axis must not be zero")
            return Rotation(value)
        self.error(
            node,
            f"The rotation tag '{tag}' of {what} is not supported: mallard reads !Identity, "
            "!Rpy and !AngleAxis (no random distributions)",
        )

    def directive(self, node):
        fields = self.mapping(node, "ModelDirective", _KIND_NAMES)
        result = ModelDirective()
        for kind, value in fields.items():
            item = getattr(self, kind)(value)
            item._where = (self.file, value.start_mark.line + 1)
            setattr(result, kind, item)
        # (result.IsValid(), with the one field known)
        if not (result.IsValid() if len(fields) != 1 else item.IsValid()):
            self.error(node, "the model directive is not valid (see log)")
        return result

    def named(self, node, what):
        """{name: value node} of a mapping with any keys."""
        yaml = self.yaml

        if not isinstance(node, yaml.MappingNode):
            self.error(node, f"Expected a mapping for {what}, got a {self.describe(node)}")
        result = {}
        for key, value in node.value:
            name = self.construct(key)
            result["" if name is None else str(name)] = value
        return result


_FIELD_SETS = {}  # field names (a tuple) -> their frozenset (_JsonReader.mapping)


class _Declined(Exception):
    """The document is not one _JsonReader reads: _Reader reads it."""


class _JsonReader(_Fields):
    """Reads a document of _yaml_json's subset, as that module reads it (a mapping a dict, a
    sequence a list, a plain scalar its text, a quoted one in single quotes), into
    ModelDirectives; _Declined wherever _Reader would do more than read plain values: an
    error (or a directive that is not valid), PyYAML's constructors (a number or key that
    is not a plain decimal or string), a tag other than a rotation's, a key given twice (the
    dicts then hold fewer pairs than the text: each mapping it reads is counted in
    ``pairs``)."""

    def __init__(self, file, tag):
        self.file = file
        self.tag = tag  # (of a plain scalar: _plain_resolver)
        self.number = _plain_number(tag)
        self.pairs = 0  # (the pairs of the mappings read)

    def load(self, document, lines, pairs):
        fields = self.mapping(document, "ModelDirectives", ("directives",))
        result = ModelDirectives()
        if "directives" in fields:
            items = fields["directives"]
            if type(items) is not list or len(items) != len(lines):
                raise _Declined
            result.directives = [
                self.directive(item, line) for item, line in zip(items, lines, strict=True)
            ]
        if self.pairs != pairs:  # (a key given twice, or a mapping not read)
            raise _Declined
        return result

    def directive(self, node, line):
        if type(node) is not dict or len(node) != 1:
            raise _Declined
        ((kind, value),) = node.items()
        if kind not in _KINDS:
            raise _Declined
        self.pairs += 1
        item = getattr(self, kind)(value)
        if item._problem() is not None:
            raise _Declined
        item._where = (self.file, line)
        result = ModelDirective()
        setattr(result, kind, item)
        return result

    def mapping(self, node, what, names):
        if type(node) is not dict:
            raise _Declined
        fields = _FIELD_SETS.get(names)
        if fields is None:
            fields = _FIELD_SETS[names] = frozenset(names)
        if not node.keys() <= fields:
            raise _Declined
        self.pairs += len(node)
        return node

    def named(self, node, what):
        if type(node) is not dict:
            raise _Declined
        self.pairs += len(node)
        return {self.key(key): value for key, value in node.items()}

    def key(self, node):
        """A name of named: a quoted scalar or a plain string (_Reader's names of other
        scalars are their values' str: "0x1F" is "31")."""
        if node[0] == "'":
            return node[1:-1]
        if node[0] == "!" or self.tag(node) != _STR:
            raise _Declined
        return node

    def scalar(self, node, kind, what):
        if type(node) is not str:
            raise _Declined
        if kind is str:
            if node[0] == "'":  # (quoted)
                return node[1:-1]
            tag = self.tag(node)
            if tag == _STR or tag == _INT or tag == _FLOAT or tag == _BOOL:  # (their text)
                return node
            raise _Declined
        value = self.number(node)
        if value is None:
            raise _Declined
        return value

    def vector(self, node, what, size=None):
        if type(node) is not list or size is not None and len(node) != size:
            raise _Declined
        try:  # (number of a list item: TypeError, it is not hashable)
            values = list(map(self.number, node))
        except TypeError:
            raise _Declined from None
        if None in values:
            raise _Declined
        return np.array(values)

    def strings(self, node, what):
        if type(node) is not list:
            raise _Declined
        return [self.scalar(item, str, what) for item in node]

    def rotation(self, node, what):
        if type(node) is not dict:
            raise _Declined
        tag, fields = "tag:yaml.org,2002:map", node
        if node:
            first = next(iter(node))
            if first[0] == "!":  # (a tagged mapping's first pair: the tag)
                self.pairs += 1
                tag, fields = first, dict(node)
                del fields[first]
        if tag in ("!Identity", "tag:yaml.org,2002:map") and not fields:
            return Rotation(Rotation.Identity())
        if tag == "!Rpy" or tag == "tag:yaml.org,2002:map":
            fields = self.mapping(fields, what, ("deg",))
            deg = self.vector(fields["deg"], what, 3) if "deg" in fields else np.zeros(3)
            return Rotation(Rotation.Rpy(deg=deg))
        if tag == "!AngleAxis":
            fields = self.mapping(fields, what, ("angle_deg", "axis"))
            value = Rotation.AngleAxis()
            if "angle_deg" in fields:
                value.angle_deg = self.scalar(fields["angle_deg"], float, what)
            if "axis" in fields:
                value.axis = self.vector(fields["axis"], what, 3)
                if not np.linalg.norm(value.axis) > 0:
                    raise _Declined
            return Rotation(value)
        raise _Declined


def load_model_directives(text, file):
    """The ModelDirectives of the YAML ``text`` (``file`` names it in messages): read as
    JSON (_yaml_json) if it is in that subset and _JsonReader reads it, else by PyYAML."""
    document = _yaml_json.read(text)
    if document is not None:
        try:
            return _JsonReader(file, _plain_tag()).load(*document)
        except _Declined:
            pass
    return _Reader(file).load(text)


def LoadModelDirectives(filename):
    """The ModelDirectives of the ``.dmd.yaml`` file ``filename``."""
    filename = os.fspath(filename)
    if not os.path.exists(filename):
        raise RuntimeError(f"No such file {filename} during LoadModelDirectives")
    with open(filename, encoding="utf-8") as f:
        return load_model_directives(f.read(), filename)


def LoadModelDirectivesFromString(model_directives):
    """The ModelDirectives of the YAML text ``model_directives``."""
    if not isinstance(model_directives, str):
        raise TypeError("LoadModelDirectivesFromString(): model_directives must be a str")
    return load_model_directives(model_directives, "<literal-string>.dmd.yaml")


# ---- names and flattening ------------------------------------------------------------------------
def join(namespace, name):
    """``namespace::name`` (just ``name`` without a namespace, and for "world": Drake's
    DmdScopedNameJoin)."""
    if name == "world" or not namespace:
        return name
    if not name:
        return namespace
    return f"{namespace}::{name}"


def split(name):
    """(namespace, element) of a scoped name."""
    namespace, _, element = name.rpartition("::")
    return namespace, element


def _flat_frame(frame, namespace):
    result = dataclasses.replace(frame, X_PF=_copy_transform(frame.X_PF))
    if namespace:
        result.name = join(namespace, frame.name)
        result.X_PF.base_frame = join(namespace, frame.X_PF.base_frame)
    if not split(frame.name)[0]:
        base_namespace = split(frame.X_PF.base_frame)[0]
        result.name = join(namespace, join(base_namespace, split(frame.name)[1]))
    return result


def _copy_transform(X):
    return Transform(X.base_frame, X.translation.copy(), Rotation(X.rotation.value))


def _flatten(directives, package_map, out, namespace):
    from mallard.multibody.parsing._package_map import resolve_uri

    def fail(message):
        raise RuntimeError(f"error: {message}")

    for directive in directives.directives:
        kind, item = directive._item()
        flat = ModelDirective()
        if kind == "add_directives":
            path = resolve_uri(item.file, package_map, "", fail, lambda m: LOGGER.warning(m))
            inner = namespace
            if item.model_namespace is not None:
                inner = join(namespace, item.model_namespace)
            _flatten(LoadModelDirectives(path), package_map, out, inner)
            continue
        if kind == "add_weld":
            flat.add_weld = dataclasses.replace(
                item, parent=join(namespace, item.parent), child=join(namespace, item.child)
            )
        elif kind == "add_model":
            flat.add_model = dataclasses.replace(item, name=join(namespace, item.name))
        elif kind == "add_model_instance":
            flat.add_model_instance = dataclasses.replace(item, name=join(namespace, item.name))
        elif kind == "add_frame":
            flat.add_frame = _flat_frame(item, namespace)
        else:
            if namespace:
                full = join(namespace, join(item.model_namespace or "", item.name))
                group_namespace, name = split(full)
                # (Drake's copy drops member_groups; mallard keeps them.)
                item = dataclasses.replace(item, name=name, model_namespace=group_namespace or None)
            flat.add_collision_filter_group = item
        out.directives.append(flat)


def FlattenModelDirectives(directives, package_map):
    """The directives with every ``add_directives`` replaced by the directives of its file
    (found through ``package_map``), their names in its namespace."""
    out = ModelDirectives()
    _flatten(directives, package_map, out, "")
    return out
