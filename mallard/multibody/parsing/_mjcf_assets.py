"""The ``<asset>``s of a document for the MJCF fast path (_mjcf_fast), read by the element
reader's own functions (_mujoco's parse_asset): materials by name (their rgba read where a geom
uses one: GeomParser._look), meshes by name as (path, scale), each file resolved by
mesh_assets as the reader resolves it (the compiler's meshdir or assetdir, the main file's
directory); textures ignored with Drake's warning (_mjcf_warnings)."""

from mallard.multibody.parsing._mjcf_frames import Declining, Node
from mallard.multibody.parsing._mjcf_tables import Declined
from mallard.multibody.parsing._mujoco import main_directory
from mallard.multibody.parsing._mujoco_geometry import mesh_assets


class _Asset:
    """One ``<asset>`` as mesh_assets reads it: its ``<mesh>``es with their defaults."""

    __slots__ = ("meshes", "tag")

    def __init__(self, meshes):
        self.meshes, self.tag = meshes, "asset"

    def findall(self, tag):
        return self.meshes


def assets(tables, defaults, meshdir):
    """({name: material Node}, {name: (path, scale)}) of the document's ``<asset>``s, in the
    reader's order (each asset's materials, then its meshes); Declined where the reader
    errs or warns (a material without a name, a mesh without a file, not found, not .obj)."""
    attrs, parents, kinds = tables.attrs, tables.parents, tables.kinds
    materials, meshes = {}, {}
    main_dir = main_directory(tables.file)
    for asset in kinds.get("asset", ()):
        for i in kinds.get("material", ()):
            if parents[i] == asset:
                name = attrs[i].get("name")
                if name is None:
                    raise Declined
                materials[name] = Node(attrs[i])
        mine = [i for i in kinds.get("mesh", ()) if parents[i] == asset]
        with_defaults = defaults.apply("mesh", mine, attrs, ["main"] * len(mine))
        mesh_assets(Declining(), _Asset([Node(a) for a in with_defaults]), meshdir, main_dir,
                    meshes)  # fmt: skip
    return materials, meshes
