"""Collision filter groups of model files (``<drake:collision_filter_group>`` in URDF and
SDFormat), as Drake's parsers read and resolve them.

A group has a name, member links (``<drake:member>``), member groups
(``<drake:member_group>``) and groups it ignores (``<drake:ignored_collision_filter_group>``;
a group may ignore itself). Group and link names are relative to the model instance of the
document's model (SDFormat names may reach into nested models: "nested::link"). Members are
looked up while parsing; the ignored pairs are resolved when the whole ``AddModels`` call has
been parsed and its geometry registered: each pair excludes the collisions between the two
groups' bodies (within the group, for a group that ignores itself).
"""

from mallard.geometry._collision_filter import CollisionFilterDeclaration

_DELIMITER = "::"


class CollisionFilterGroups:
    """The collision filter groups a Parser has read (pydrake.multibody.parsing's): group
    names and body names are scoped by their model instance ("model::name")."""

    def __init__(self):
        self._groups = {}
        self._pairs = set()

    def AddGroup(self, name, members):
        """Adds group ``name`` with the body names ``members``; RuntimeError if it exists."""
        if name in self._groups:
            raise RuntimeError(f"group '{name}' has already been defined")
        self._groups[name] = set(members)

    def AddExclusionPair(self, pair):
        """Adds the pair of group names whose bodies do not collide with each other."""
        a, b = pair
        self._pairs.add((a, b) if a <= b else (b, a))

    def empty(self):
        return not self._groups and not self._pairs

    def groups(self):
        """{group name: set of body names}."""
        return {name: set(members) for name, members in self._groups.items()}

    def exclusion_pairs(self):
        """The set of (group name, group name) pairs, each sorted."""
        return set(self._pairs)

    def _merge(self, other):
        for name, members in other._groups.items():
            self._groups[name] = set(members)
        self._pairs |= other._pairs


class _Group:
    __slots__ = ("bodies", "member_groups")

    def __init__(self):
        self.bodies = []
        self.member_groups = []


class CollisionFilterGroupResolver:
    """The groups and ignored pairs of one ``AddModels`` call, resolved at its end."""

    def __init__(self, plant):
        self.plant = plant
        self.groups = {}  # fully qualified name -> _Group
        self.pairs = set()
        self.pair_errors = {}  # pair -> how to report its missing group, where it was read

    def _qualify(self, name, instance):
        """``name`` prefixed by the scope of ``instance`` (none for World and default)."""
        if int(instance) <= 1:
            return name
        scope = self.plant.GetModelInstanceName(instance)
        return f"{scope}{name}" if name.startswith(_DELIMITER) else f"{scope}{_DELIMITER}{name}"

    def _legal(self, error, name, description):
        if name.startswith(":") or name.endswith(":"):
            error(f"{description} '{name}' can neither begin nor end with ':'")

    def _body(self, error, name, instance):
        """The body that ``name`` (relative to ``instance``) names; an error if none."""
        self._legal(error, name, "body name")
        qualified = self._qualify(name, instance)
        scope, _, local = qualified.rpartition(_DELIMITER)
        plant = self.plant
        if scope and not plant.HasModelInstanceNamed(scope):
            error(f"body with name '{qualified}' not found")
        body_instance = plant.GetModelInstanceByName(scope) if scope else instance
        if not plant.HasBodyNamed(local, body_instance):
            error(f"body with name '{qualified}' not found")
        return plant.GetBodyByName(local, body_instance)

    def add_group(self, error, name, instance, member_links, member_groups):
        """Adds group ``name`` of ``instance`` with its member link and member group names;
        ``error(message)`` reports a problem at the group's element."""
        self._legal(error, name, "group name")
        qualified = self._qualify(name, instance)
        if _DELIMITER in name:
            error(f"group name '{qualified}' cannot be a scoped name")
        if not member_links and not member_groups:
            error(f"group '{qualified}' has no members")
        if qualified in self.groups:
            error(f"group '{qualified}' has already been defined")
        group = _Group()
        group.bodies = [self._body(error, link, instance) for link in member_links]
        group.member_groups = [self._qualify(other, instance) for other in member_groups]
        self.groups[qualified] = group

    def add_pair(self, name, other, instance, error=None):
        """Records that group ``name`` of ``instance`` ignores group ``other`` (which need
        not exist until ``resolve``); ``error(message)``, if given, reports a missing group
        at the place the pair was read."""
        a, b = self._qualify(name, instance), self._qualify(other, instance)
        pair = (a, b) if a <= b else (b, a)
        self.pairs.add(pair)
        if error is not None:
            self.pair_errors.setdefault(pair, error)

    def _find(self, error, name):
        group = self.groups.get(name)
        if group is None:
            error(f"collision filter group with name '{name}' not found")
        return group

    def resolve(self, error):
        """Excludes the collisions of each ignored pair of groups (with the geometry
        registered by now); returns the CollisionFilterGroups read. ``error(message)``
        reports a group that does not exist."""
        bodies = {}
        for name, group in self.groups.items():
            members = dict.fromkeys(group.bodies)
            for other in group.member_groups:
                members.update(dict.fromkeys(self._find(error, other).bodies))
            bodies[name] = list(members)
        plant = self.plant
        declaration = CollisionFilterDeclaration()
        for a, b in sorted(self.pairs):
            self._find(self.pair_errors.get((a, b), error), a)
            self._find(self.pair_errors.get((a, b), error), b)
            set_a = plant.CollectRegisteredGeometries(bodies[a])
            if a == b:
                declaration.ExcludeWithin(set_a)
            else:
                declaration.ExcludeBetween(set_a, plant.CollectRegisteredGeometries(bodies[b]))
        plant._geometry_link.scene_graph.collision_filter_manager().Apply(declaration)
        read = CollisionFilterGroups()
        for name, members in bodies.items():
            read.AddGroup(name, {self._scoped_body_name(body) for body in members})
        for pair in self.pairs:
            read.AddExclusionPair(pair)
        return read

    def _scoped_body_name(self, body):
        return self._qualify(body.name(), body.model_instance())


def _text_attribute(diagnostics, node, attribute, sdf):
    """The value of a required attribute (URDF) or text (SDFormat) of ``node``."""
    if sdf:
        value = (node.text or "").strip()
        if not value:
            diagnostics.error(
                None, f"The tag <{node.tag}> is missing a required string value.", file=node.file
            )
        return value
    value = node.get(attribute)
    if value is None:
        diagnostics.error(
            node, f'The tag <{node.tag}> does not specify the required attribute "{attribute}".'
        )
    return value


def parse_collision_filter_group(workspace, node, instance, sdf=False):
    """Reads the ``<drake:collision_filter_group>`` element ``node`` of the model
    ``instance`` into ``workspace.filter_groups`` (URDF: names in ``name``/``link``
    attributes; SDFormat: in the elements' text)."""
    diagnostics = workspace.diagnostics
    ignore = node.get("ignore")
    if ignore is not None and ignore.strip().lower() in ("true", "1"):
        return
    name = node.get("name")
    if name is None:
        message = f'The tag <{node.tag}> does not specify the required attribute "name".'
        if sdf:
            message = f'The tag <{node.tag}> is missing the required attribute "name"'
            diagnostics.error(None, message, file=node.file)
        diagnostics.error(node, message)

    def values(tag, attribute):
        return [_text_attribute(diagnostics, child, attribute, sdf) for child in node.findall(tag)]

    resolver = workspace.filter_groups
    links = values("drake:member", "link")
    groups = values("drake:member_group", "name")
    resolver.add_group(
        lambda message: diagnostics.error(node, message), name, instance, links, groups
    )
    for other in values("drake:ignored_collision_filter_group", "name"):
        resolver.add_pair(name, other, instance)
