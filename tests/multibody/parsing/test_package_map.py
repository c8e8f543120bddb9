"""PackageMap: pydrake's API, rules and messages (no remote packages)."""

import copy
import logging
import os

import pytest

from mallard.multibody.parsing import PackageMap
from mallard.multibody.parsing._package_map import (
    MALLARD_PACKAGE_XML,
    _installed_drake_package_xml,
    lexically_normal,
)

#: The default map's packages: "mallard", and "drake" where pydrake is installed.
DEFAULT = sorted(["mallard"] + (["drake"] if _installed_drake_package_xml() else []))

MODELS = os.path.dirname(MALLARD_PACKAGE_XML)


def write_package(directory, name, deprecated=None):
    directory.mkdir(parents=True, exist_ok=True)
    export = ""
    if deprecated is not None:
        export = f"<export><deprecated>{deprecated}</deprecated></export>"
    (directory / "package.xml").write_text(
        f'<?xml version="1.0"?>\n<package format="2"><name>{name}</name>{export}</package>'
    )
    return directory


def test_default_map_holds_mallards_models():
    package_map = PackageMap()
    assert package_map.GetPackageNames() == DEFAULT
    assert package_map.size() == len(DEFAULT)
    assert package_map.GetPath("mallard") == MODELS
    for name in ("pendulum", "acrobot", "cart_pole"):
        assert os.path.isfile(package_map.ResolveUrl(f"package://mallard/{name}.urdf"))
    assert PackageMap.MakeEmpty().size() == 0


def test_default_map_has_an_installed_drakes_models():
    """package://drake/... resolves to an installed pydrake's files, as in pydrake."""
    path = _installed_drake_package_xml()
    if path is None:
        pytest.skip("pydrake is not installed")
    url = "package://drake/examples/pendulum/Pendulum.urdf"
    assert PackageMap().ResolveUrl(url) == os.path.join(
        os.path.dirname(path), "examples", "pendulum", "Pendulum.urdf"
    )


def test_add_contains_remove(tmp_path):
    package_map = PackageMap.MakeEmpty()
    package_map.Add("foo", tmp_path)  # os.PathLike is accepted
    assert package_map.Contains("foo") and not package_map.Contains("bar")
    assert package_map.GetPath("foo") == str(tmp_path)
    package_map.Add("foo", f"{tmp_path}/")  # the same directory, spelled differently
    with pytest.raises(RuntimeError) as info:
        package_map.Add("foo", MODELS)
    assert str(info.value) == (
        f"PackageMap::Add() cannot add 'foo' because the local paths are not equivalent "
        f"('{tmp_path}' vs '{MODELS}')"
    )
    with pytest.raises(RuntimeError) as info:
        package_map.Add("bar", "/nowhere")
    assert str(info.value) == (
        "PackageMap::Add cannot add 'bar' because directory '/nowhere' does not exist"
    )
    package_map.Remove("foo")
    assert package_map.size() == 0
    with pytest.raises(RuntimeError) as info:
        package_map.Remove("foo")
    assert str(info.value) == "Could not find and remove package://foo from the search path."
    with pytest.raises(RuntimeError, match="Contains"):
        package_map.GetPath("foo")


def test_add_map_and_copies(tmp_path):
    first = PackageMap.MakeEmpty()
    first.Add("foo", tmp_path)
    second = PackageMap()
    second.AddMap(first)
    assert second.GetPackageNames() == sorted(["foo", *DEFAULT])
    second.AddMap(first)  # same paths: no change
    third = PackageMap.MakeEmpty()
    third.Add("foo", MODELS)
    with pytest.raises(RuntimeError, match="AddMap cannot merge the package definition for 'foo'"):
        second.AddMap(third)
    for clone in (PackageMap(second), copy.copy(second), copy.deepcopy(second)):
        clone.Remove("foo")
        assert second.Contains("foo")


def test_add_package_xml(tmp_path):
    package_map = PackageMap.MakeEmpty()
    write_package(tmp_path / "pkg", "my_pkg")
    package_map.AddPackageXml(tmp_path / "pkg" / "package.xml")
    assert package_map.GetPath("my_pkg") == str(tmp_path / "pkg")
    missing = tmp_path / "none" / "package.xml"
    with pytest.raises(RuntimeError) as info:
        package_map.AddPackageXml(missing)
    assert str(info.value) == (
        f'PackageMap::GetPackageName(): Failed to parse XML in file "{missing}".\n'
        "XML_ERROR_FILE_NOT_FOUND"
    )
    (tmp_path / "bad.xml").write_text("<robot/>")
    with pytest.raises(RuntimeError, match="does not contain element <package>"):
        package_map.AddPackageXml(tmp_path / "bad.xml")


def test_populate_from_folder(tmp_path, caplog):
    write_package(tmp_path / "a", "alpha")
    write_package(tmp_path / "a" / "inner", "inner")
    write_package(tmp_path / "b" / "deep" / "er", "beta")
    write_package(tmp_path / ".hidden", "hidden")
    write_package(tmp_path / "c", "alpha")  # found again elsewhere: a warning
    package_map = PackageMap.MakeEmpty()
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        package_map.PopulateFromFolder(tmp_path)
    assert package_map.GetPackageNames() == ["alpha", "beta", "inner"]
    assert package_map.GetPath("alpha") == f"{tmp_path}/a/"
    assert "PackageMap is ignoring newly-found path for package 'alpha'" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        package_map.PopulateFromFolder(tmp_path / "nowhere")
    assert f"Unable to open directory: {tmp_path / 'nowhere'}" in caplog.text


def test_populate_from_environment(tmp_path, monkeypatch):
    write_package(tmp_path / "one" / "p", "p1")
    write_package(tmp_path / "two" / "q", "q1")
    write_package(tmp_path / "two" / "q" / "sub", "sub")
    write_package(tmp_path / "two" / "ignored", "ignored")
    (tmp_path / "two" / "ignored" / "CATKIN_IGNORE").write_text("")
    monkeypatch.setenv("MY_PATH", f"{tmp_path / 'one'}::{tmp_path / 'two'}")
    package_map = PackageMap.MakeEmpty()
    package_map.PopulateFromEnvironment("MY_PATH")
    assert package_map.GetPackageNames() == ["ignored", "p1", "q1", "sub"]
    package_map.PopulateFromEnvironment("UNSET_VARIABLE_FOR_MALLARD")
    with pytest.raises(RuntimeError, match="use PopulateFromRosPackagePath"):
        package_map.PopulateFromEnvironment("ROS_PACKAGE_PATH")
    # ROS rules: nothing below a package, nothing in ignored directories.
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{tmp_path / 'two'}")
    ros = PackageMap.MakeEmpty()
    ros.PopulateFromRosPackagePath()
    assert ros.GetPackageNames() == ["q1"]


def test_resolve_url(tmp_path):
    (tmp_path / "robots").mkdir()
    (tmp_path / "robots" / "r.urdf").write_text("")
    package_map = PackageMap.MakeEmpty()
    package_map.Add("foo", tmp_path)
    expected = str(tmp_path / "robots" / "r.urdf")
    assert package_map.ResolveUrl("package://foo/robots/r.urdf") == expected
    assert package_map.ResolveUrl("model://foo//robots/../robots/r.urdf") == expected
    assert package_map.ResolveUrl(f"file://{expected}") == expected
    with pytest.raises(RuntimeError) as info:
        package_map.ResolveUrl("package://foo/robots/none.urdf")
    assert str(info.value) == (
        f"error: URI 'package://foo/robots/none.urdf' resolved to '{tmp_path}/robots/none.urdf' "
        "which does not exist."
    )
    with pytest.raises(RuntimeError, match="refers to unknown package 'bar'"):
        package_map.ResolveUrl("package://bar/r.urdf")


def test_deprecated_packages_warn(tmp_path, caplog):
    write_package(tmp_path, "old", deprecated="\n   use new\n   instead  ")
    (tmp_path / "m.urdf").write_text("")
    package_map = PackageMap.MakeEmpty()
    package_map.AddPackageXml(tmp_path / "package.xml")
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        package_map.GetPath("old")
        package_map.ResolveUrl("package://old/m.urdf")
    assert "PackageMap: Package 'old' is deprecated: use new instead" in caplog.text
    assert "In URI 'package://old/m.urdf': Package 'old' is deprecated" in caplog.text


def test_remote_packages_are_not_supported():
    params = PackageMap.RemoteParams(urls=["https://example.com/a.zip"], sha256="0" * 64)
    assert params.urls == ["https://example.com/a.zip"]
    assert params.ToJson() == '{"urls":["https://example.com/a.zip"],"sha256":"' + "0" * 64 + '"}'
    with pytest.raises(NotImplementedError, match="does not download"):
        PackageMap().AddRemote("remote", params)


def test_lexically_normal():
    assert lexically_normal("/a/./b/../c") == "/a/c"
    assert lexically_normal("/a/b/") == "/a/b/"
    assert lexically_normal("/a/b/..") == "/a/"
    assert lexically_normal("/") == "/"
