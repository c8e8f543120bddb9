"""MultibodyElement: what bodies, frames, joints, actuators and force elements share.

An element is built on its own, then owned by the MultibodyPlant it is added to; from then on
it knows its plant, its index in that plant, its ordinal (its position among the plant's
elements of its kind: indices of removed joints and actuators leave gaps, ordinals do not) and
its model instance. Context-dependent methods
go through the plant, which checks that the Context is its own.
"""

import warnings


def warn_deprecated(message):
    """A DeprecationWarning for the caller of the deprecated method calling this."""
    warnings.warn(message, DeprecationWarning, stacklevel=3)


def use_instead(replacement):
    """pydrake's deprecation message for a method replaced by ``replacement``."""
    return f"Use {replacement}() instead. This will be removed from Drake on or after 2026-06-01."


def unplaced(count, lists):
    """The places of ``count`` elements made for no plant yet, as the bulk constructors'
    ``places`` take them: (None, then ``lists`` lists of ``count`` Nones)."""
    none = [None] * count
    return (None, *([none] * lists))


class FieldInRow:
    """An element's field read from its row of a parser's read-only array (a joint's limits,
    a body's spatial inertia: its values stay where the parser read them): ``read(rows, j)``
    of the element's (rows, j) attribute ``row``, made at the first read and kept as the
    element's own attribute, which later reads and assignments find first (a non-data
    descriptor; an element made otherwise sets the field itself)."""

    __slots__ = ("_name", "_row", "_read")

    def __init__(self, row, read):
        self._row, self._read = row, read

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, element, owner=None):
        if element is None:
            return self
        rows, j = getattr(element, self._row)
        value = self._read(rows, j)
        setattr(element, self._name, value)  # (not __dict__: that would make the dict)
        return value


class MultibodyElement:
    """Name, index, model instance and parent plant of an element of a MultibodyPlant."""

    #: The index type of this kind of element (BodyIndex, JointIndex, ...).
    _index_type = None

    def __init__(self, model_instance=None):
        self._plant = None
        self._index = None
        self._ordinal = None
        self._model_instance = model_instance
        self._ephemeral = False

    def index(self):
        """This element's index in its plant (-1 until it is added to one, as in pydrake)."""
        return self._index if self._index is not None else self._index_type(-1)

    def model_instance(self):
        """The ModelInstanceIndex of the model instance this element belongs to."""
        return self._model_instance

    def is_ephemeral(self):
        """True if the plant added this element itself at Finalize() (floating joints)."""
        return self._ephemeral

    def GetParentPlant(self):
        """The MultibodyPlant that owns this element; RuntimeError if none does."""
        if self._plant is None:
            raise RuntimeError("This multibody element was not owned by a MultibodyPlant.")
        return self._plant

    def __repr__(self):
        index = -1 if self._index is None else int(self._index)
        return (
            f"<{type(self).__name__} name='{self._element_name()}' index={index} "
            f"model_instance={int(self._model_instance)}>"
        )

    def _model_changed(self):
        """Tells the owning plant, if any, that a model-level value its Contexts read (gravity,
        effort limits) changed."""
        if self._plant is not None:
            self._plant._model_changed()

    def _element_name(self):
        return getattr(self, "_name", "")

    def _describe(self):
        """``RevoluteJoint 'elbow'``: how error messages name this element."""
        return f"{type(self).__name__} '{self._element_name()}'"

    def _finalized_plant(self, method):
        """The parent plant, which must be finalized for ``method``; RuntimeError otherwise."""
        plant = self.GetParentPlant()
        if not plant.is_finalized():
            raise RuntimeError(
                f"{self._describe()}: {method}() may only be called after the MultibodyPlant "
                "is finalized (call Finalize() first)"
            )
        return plant
