"""Triangles of mesh files (.obj, .stl, .dae), for the replay viewer to draw.

read_mesh(path) gives a TriangleMesh: vertices (n, 3) in the file's frame and units (a
Collada file's <unit> applied; its up axis is not: its coordinates are taken as z up, as the
meshcat viewer takes them), triangles (m, 3) of vertex indices, and for a Collada file whose
materials have diffuse colors, those colors over ranges of triangles. Polygons are split
into fans of triangles. Duplicate vertices are merged.
"""

import os
import re
import struct
import xml.etree.ElementTree as ET

import numpy as np

#: The extensions read_mesh() reads (lower case, with the dot).
MESH_EXTENSIONS = (".obj", ".stl", ".dae")


class MeshFileError(ValueError):
    """A mesh file that cannot be read: names the file and what is wrong."""


class TriangleMesh:
    """``vertices`` (n, 3) floats, ``triangles`` (m, 3) ints and ``parts``, a list of
    (first triangle, number of triangles, rgba or None) covering the triangles in order
    (one part with None: the file gives no colors)."""

    def __init__(self, vertices, triangles, parts=None):
        self.vertices = np.asarray(vertices, dtype=float).reshape(-1, 3)
        self.triangles = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
        self.parts = [(0, len(self.triangles), None)] if parts is None else parts

    def merged(self):
        """The same mesh with its duplicate vertices (equal in float32) made one, and the
        triangles that no longer span an area (two equal corners) dropped, part by part."""
        vertices = self.vertices.astype(np.float32)
        unique, inverse = np.unique(vertices, axis=0, return_inverse=True)
        triangles = inverse.reshape(-1)[self.triangles]
        keep = (
            (triangles[:, 0] != triangles[:, 1])
            & (triangles[:, 1] != triangles[:, 2])
            & (triangles[:, 2] != triangles[:, 0])
        )
        parts, start = [], 0
        for first, count, rgba in self.parts:
            kept = int(keep[first : first + count].sum())
            if kept:
                parts.append((start, kept, rgba))
            start += kept
        return TriangleMesh(unique, triangles[keep], parts)


def read_mesh(path):
    """The TriangleMesh of the .obj, .stl or .dae file ``path``. MeshFileError for a file
    that cannot be read or parsed, or an extension not in MESH_EXTENSIONS."""
    extension = os.path.splitext(path)[1].lower()
    reader = {".obj": _read_obj, ".stl": _read_stl, ".dae": _read_dae}.get(extension)
    if reader is None:
        raise MeshFileError(
            f"{path}: cannot read '{extension}' meshes (only {', '.join(MESH_EXTENSIONS)})"
        )
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise MeshFileError(f"{path}: {e.strerror}") from None
    try:
        mesh = reader(data)
    except (ValueError, IndexError, KeyError, ET.ParseError, struct.error) as e:
        raise MeshFileError(f"{path}: not a valid {extension[1:]} file ({e})") from None
    if len(mesh.triangles) == 0:
        raise MeshFileError(f"{path}: the file has no triangles")
    if np.any(mesh.triangles < 0) or np.any(mesh.triangles >= len(mesh.vertices)):
        raise MeshFileError(f"{path}: a face refers to a vertex that does not exist")
    if not np.all(np.isfinite(mesh.vertices)):
        raise MeshFileError(f"{path}: a vertex has a non-finite coordinate")
    return mesh.merged()


def _fans(polygons):
    """The triangles (k, 3) of polygons (lists of vertex indices), each split as a fan."""
    triangles = [(p[0], p[i], p[i + 1]) for p in polygons for i in range(1, len(p) - 1)]
    return np.array(triangles, dtype=np.int64).reshape(-1, 3)


def _read_obj(data):
    """Wavefront OBJ: "v x y z" vertices, "f" faces of 1-based (or negative, relative)
    vertex indices "i", "i/t", "i//n" or "i/t/n"; everything else is ignored."""
    vertices, faces = [], []
    for line in data.decode("utf-8", errors="replace").splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "v":
            vertices.append([float(x) for x in fields[1:4]])
        elif fields[0] == "f":
            face = []
            for field in fields[1:]:
                index = int(field.split("/")[0])
                face.append(index - 1 if index > 0 else len(vertices) + index)
            faces.append(face)
    return TriangleMesh(np.array(vertices, dtype=float).reshape(-1, 3), _fans(faces))


def _read_stl(data):
    """STL, binary (80-byte header, a count, 50 bytes per triangle) or ASCII."""
    if len(data) >= 84:
        (count,) = struct.unpack_from("<I", data, 80)
        if len(data) == 84 + 50 * count:
            record = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attr", "<u2")])
            corners = np.frombuffer(data, dtype=record, count=count, offset=84)["corners"]
            return TriangleMesh(corners.reshape(-1, 3), np.arange(3 * count).reshape(-1, 3))
    text = data.decode("ascii", errors="replace")
    if not text.lstrip().startswith("solid"):
        raise ValueError("neither binary nor ASCII STL")
    corners = re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text)
    vertices = np.array(corners, dtype=float).reshape(-1, 3)
    if len(vertices) % 3:
        raise ValueError("a facet without 3 vertices")
    return TriangleMesh(vertices, np.arange(len(vertices)).reshape(-1, 3))


# ---- Collada ------------------------------------------------------------------------------------


def _local(tag):
    return tag.rsplit("}", 1)[-1]


def _numbers(element, dtype=float):
    return np.array((element.text or "").split(), dtype=dtype)


def _node_transform(node):
    """The 4x4 transform of a <node> from its <matrix>, <translate>, <rotate> and <scale>
    children, applied in order."""
    T = np.eye(4)
    for child in node:
        kind = _local(child.tag)
        if kind == "matrix":
            T = T @ _numbers(child).reshape(4, 4)
        elif kind == "translate":
            step = np.eye(4)
            step[:3, 3] = _numbers(child)
            T = T @ step
        elif kind == "scale":
            T = T @ np.diag([*_numbers(child), 1.0])
        elif kind == "rotate":
            x, y, z, degrees = _numbers(child)
            axis = np.array([x, y, z]) / np.linalg.norm([x, y, z])
            a = np.radians(degrees)
            K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
            step = np.eye(4)
            step[:3, :3] = np.eye(3) + np.sin(a) * K + (1 - np.cos(a)) * K @ K
            T = T @ step
    return T


class _Collada:
    """A parsed Collada document: elements by id, and the diffuse colors of its materials."""

    def __init__(self, data):
        self.root = ET.fromstring(data)
        self.ids = {e.get("id"): e for e in self.root.iter() if e.get("id") is not None}
        unit = next((e for e in self.root.iter() if _local(e.tag) == "unit"), None)
        self.meter = float(unit.get("meter", "1")) if unit is not None else 1.0

    def find(self, element, *path):
        """The first descendant of ``element`` along the tag names ``path``, or None."""
        for name in path:
            if element is None:
                return None
            element = next((c for c in element if _local(c.tag) == name), None)
            if element is None:
                return None
        return element

    def by_url(self, url):
        return self.ids.get((url or "").lstrip("#"))

    def material_rgba(self, material_id):
        """The diffuse color of a material's effect, or None (a texture, or none given)."""
        material = self.ids.get(material_id)
        effect = (
            self.by_url(self.find(material, "instance_effect").get("url")) if material else None
        )
        if effect is None:
            return None
        for element in effect.iter():
            if _local(element.tag) == "diffuse":
                color = self.find(element, "color")
                if color is not None:
                    rgba = _numbers(color)
                    return [float(x) for x in np.clip(rgba, 0, 1)] if len(rgba) == 4 else None
        return None

    def source_array(self, source):
        """The (count, stride) floats of a <source>."""
        accessor = self.find(source, "technique_common", "accessor")
        values = _numbers(self.find(source, "float_array"))
        stride = int(accessor.get("stride", "1")) if accessor is not None else 3
        return values[: len(values) - len(values) % stride].reshape(-1, stride)

    def positions(self, mesh, vertices_url):
        vertices = self.by_url(vertices_url)
        for element in vertices:
            if _local(element.tag) == "input" and element.get("semantic") == "POSITION":
                return self.source_array(self.by_url(element.get("source")))[:, :3]
        raise ValueError(f"<vertices id='{vertices.get('id')}'> has no POSITION input")

    def primitives(self, geometry):
        """(positions (k, 3), triangles, material symbol) of each primitive of a <geometry>."""
        mesh = self.find(geometry, "mesh")
        if mesh is None:
            return
        for primitive in mesh:
            kind = _local(primitive.tag)
            if kind not in ("triangles", "polylist", "polygons"):
                continue
            inputs = [c for c in primitive if _local(c.tag) == "input"]
            vertex = next(c for c in inputs if c.get("semantic") == "VERTEX")
            stride = max(int(c.get("offset", "0")) for c in inputs) + 1
            offset = int(vertex.get("offset", "0"))
            positions = self.positions(mesh, vertex.get("source"))
            p_elements = [c for c in primitive if _local(c.tag) == "p"]
            if kind == "polygons":
                polygons = [
                    _numbers(p, np.int64).reshape(-1, stride)[:, offset] for p in p_elements
                ]
                triangles = _fans(polygons)
            else:
                indices = np.concatenate([_numbers(p, np.int64) for p in p_elements])
                indices = indices.reshape(-1, stride)[:, offset]
                if kind == "triangles":
                    triangles = indices.reshape(-1, 3)
                else:
                    sizes = _numbers(self.find(primitive, "vcount"), np.int64)
                    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
                    triangles = _fans(
                        [indices[s : s + n] for s, n in zip(starts, sizes, strict=True)]
                    )
            yield positions, triangles, primitive.get("material")

    def instances(self):
        """(T, <instance_geometry>) of each geometry instance in the scene's node tree."""
        scene = self.find(self.root, "scene", "instance_visual_scene")
        roots = [self.by_url(scene.get("url"))] if scene is not None else []
        if not roots or roots[0] is None:
            roots = [e for e in self.root.iter() if _local(e.tag) == "visual_scene"][:1]
        stack = [(np.eye(4), node) for root in roots for node in root if _local(node.tag) == "node"]
        while stack:
            parent, node = stack.pop()
            T = parent @ _node_transform(node)
            for child in node:
                kind = _local(child.tag)
                if kind == "node":
                    stack.append((T, child))
                elif kind == "instance_node":
                    target = self.by_url(child.get("url"))
                    if target is not None:
                        stack.append((T, target))
                elif kind == "instance_geometry":
                    yield T, child


def _read_dae(data):
    """Collada: the geometry instances of the visual scene, each in its node's transform,
    colored by the diffuse color of its bound material (where the file gives one)."""
    doc = _Collada(data)
    vertices, triangles, parts, count, start = [], [], [], 0, 0
    for T, instance in doc.instances():
        geometry = doc.by_url(instance.get("url"))
        if geometry is None:
            continue
        bound = {
            m.get("symbol"): m.get("target", "").lstrip("#")
            for m in instance.iter()
            if _local(m.tag) == "instance_material"
        }
        for positions, faces, symbol in doc.primitives(geometry):
            if len(faces) == 0:
                continue
            points = positions @ T[:3, :3].T + T[:3, 3]
            vertices.append(points * doc.meter)
            triangles.append(faces + count)
            count += len(points)
            rgba = doc.material_rgba(bound.get(symbol, symbol))
            parts.append((start, len(faces), rgba))
            start += len(faces)
    if not vertices:
        return TriangleMesh(np.zeros((0, 3)), np.zeros((0, 3)))
    if all(rgba is None for _, _, rgba in parts):
        parts = None
    return TriangleMesh(np.concatenate(vertices), np.concatenate(triangles), parts)
