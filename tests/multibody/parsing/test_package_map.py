"""PackageMap: pydrake's API, rules and messages; Drake's packages ("drake" from an installed
pydrake, the remote "drake_models"); remote packages fetched from file:// archives into a
temporary cache (no network)."""

import copy
import hashlib
import logging
import os
import tarfile

import pytest

from mallard.multibody.parsing import PackageMap, _package_map
from mallard.multibody.parsing._package_map import MALLARD_PACKAGE_XML, lexically_normal

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
    assert "mallard" in package_map.GetPackageNames()
    assert package_map.GetPath("mallard") == MODELS
    for name in ("pendulum", "acrobot", "cart_pole"):
        assert os.path.isfile(package_map.ResolveUrl(f"package://mallard/{name}.urdf"))
    assert PackageMap.MakeEmpty().size() == 0


def test_default_map_holds_drakes_packages(monkeypatch):
    """ "drake" is pydrake's share/drake when pydrake is installed; "drake_models" is remote,
    declared as the installed Drake declares it."""
    names = PackageMap().GetPackageNames()
    share = _package_map.drake_share()
    assert names == (["drake"] if share else []) + ["drake_models", "mallard"]
    if share:
        path = PackageMap().ResolveUrl("package://drake/examples/pendulum/Pendulum.urdf")
        assert path == os.path.join(share, "examples", "pendulum", "Pendulum.urdf")
    params = _package_map.drake_models_params()
    assert params.sha256 == _package_map.DRAKE_MODELS["sha256"]
    assert params.strip_prefix.startswith("models-")
    assert params == PackageMap()._remote["drake_models"]


def test_unknown_drake_package_says_how_to_add_it():
    with pytest.raises(RuntimeError, match=r"unknown package 'drake' \(mallard finds Drake's"):
        PackageMap.MakeEmpty().ResolveUrl("package://drake/examples/x.urdf")


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
    assert second.GetPackageNames() == sorted(PackageMap().GetPackageNames() + ["foo"])
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


def _archive(tmp_path, name="pkg", fmt="gztar", prefix="pkg-1.0"):
    """A file:// archive holding the package ``name`` under ``prefix``; (url, sha256)."""
    source = tmp_path / "source" / prefix
    write_package(source, name)
    (source / "model.urdf").write_text('<robot name="r"><link name="l"/></robot>')
    base = str(tmp_path / name)
    archive = tmp_path / (f"{name}.tar.gz" if fmt == "gztar" else f"{name}.zip")
    if fmt == "gztar":
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(source, arcname=prefix)
    else:
        import shutil

        archive = shutil.make_archive(base, "zip", tmp_path / "source", prefix)
    data = open(archive, "rb").read()
    return f"file://{archive}", hashlib.sha256(data).hexdigest()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache directory (Drake's rule: TEST_TMPDIR/.cache first)."""
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path / "tmpdir"))
    (tmp_path / "tmpdir").mkdir()
    return tmp_path / "tmpdir" / ".cache" / "drake" / "package_map"


def test_remote_params():
    params = PackageMap.RemoteParams(urls=["https://example.com/a.zip"], sha256="0" * 64)
    assert params.urls == ["https://example.com/a.zip"]
    assert params.ToJson() == '{"sha256":"' + "0" * 64 + '","urls":["https://example.com/a.zip"]}'
    params.strip_prefix = "p"
    assert params.ToJson().startswith('{"sha256"') and '"strip_prefix":"p"' in params.ToJson()


def test_remote_package_is_fetched_on_first_use(tmp_path, cache):
    url, sha256 = _archive(tmp_path)
    package_map = PackageMap.MakeEmpty()
    params = PackageMap.RemoteParams(urls=[url], sha256=sha256, strip_prefix="pkg-1.0")
    package_map.AddRemote("pkg", params)
    assert not cache.exists() or not any(cache.iterdir())  # nothing fetched yet
    path = package_map.GetPath("pkg")
    assert path == str(cache / params.cache_name())
    assert os.path.isfile(os.path.join(path, "model.urdf"))
    assert (cache / f"{params.cache_name()}.README").is_file()
    # Another map finds it in the cache, even when the archive is gone.
    os.remove(url[len("file://") :])
    again = PackageMap.MakeEmpty()
    again.AddRemote("pkg", params)
    assert again.ResolveUrl("package://pkg/model.urdf") == os.path.join(path, "model.urdf")
    # Adding it again with the same params is a no-op; with other params an error.
    again.AddRemote("pkg", params)
    other = PackageMap.RemoteParams(urls=[url], sha256="1" * 64)
    with pytest.raises(RuntimeError, match="remote package parameters differ"):
        again.AddRemote("pkg", other)
    copied = PackageMap(again)
    assert copied.GetPath("pkg") == path


def test_remote_zip_without_prefix(tmp_path, cache):
    url, sha256 = _archive(tmp_path, fmt="zip")
    package_map = PackageMap.MakeEmpty()
    params = PackageMap.RemoteParams(urls=[url], sha256=sha256, archive_type="zip")
    package_map.AddRemote("pkg", params)
    assert os.path.isfile(os.path.join(package_map.GetPath("pkg"), "pkg-1.0", "model.urdf"))


def test_remote_package_checksum_and_prefix_errors(tmp_path, cache):
    url, sha256 = _archive(tmp_path)
    bad = PackageMap.MakeEmpty()
    bad.AddRemote("pkg", PackageMap.RemoteParams(urls=[url], sha256="f" * 64))
    with pytest.raises(RuntimeError, match="Checksum mismatch; was " + sha256):
        bad.GetPath("pkg")
    prefix = PackageMap.MakeEmpty()
    prefix.AddRemote("pkg", PackageMap.RemoteParams([url], sha256, strip_prefix="nope"))
    with pytest.raises(RuntimeError, match="strip_prefix='nope' does not exist"):
        prefix.GetPath("pkg")
    missing = PackageMap.MakeEmpty()
    missing.AddRemote("pkg", PackageMap.RemoteParams(["file:///no/such.zip"], sha256))
    with pytest.raises(RuntimeError, match="All downloads failed"):
        missing.ResolveUrl("package://pkg/model.urdf")


def test_add_remote_checks_its_params(monkeypatch):
    package_map = PackageMap.MakeEmpty()
    params = PackageMap.RemoteParams
    for bad, message in (
        (params([], "0" * 64), "requires at least one URL"),
        (params(["ftp://x"], "0" * 64), "unsupported URL 'ftp://x'"),
        (params(["https://x/a.zip"], "zz"), "invalid sha256 'zz'"),
        (params(["https://x/a.zip"], "0" * 64, "rar"), "unsupported archive type 'rar'"),
    ):
        with pytest.raises(RuntimeError, match=message):
            package_map.AddRemote("p", bad)
    monkeypatch.setenv("DRAKE_ALLOW_NETWORK", "none")
    with pytest.raises(RuntimeError, match="only provides network URLs"):
        package_map.AddRemote("p", params(["https://x/a.zip"], "0" * 64))
    monkeypatch.setenv("DRAKE_ALLOW_NETWORK", "other:package_map")
    package_map.AddRemote("p", params(["https://x/a.zip"], "0" * 64))


def test_lexically_normal():
    assert lexically_normal("/a/./b/../c") == "/a/c"
    assert lexically_normal("/a/b/") == "/a/b/"
    assert lexically_normal("/a/b/..") == "/a/"
    assert lexically_normal("/") == "/"


def test_a_package_xml_is_read_again_when_it_changes(tmp_path, caplog):
    xml = str(write_package(tmp_path, "first") / "package.xml")
    package_map = PackageMap.MakeEmpty()
    package_map.AddPackageXml(xml)
    assert package_map.Contains("first")
    stat = os.stat(xml)
    write_package(tmp_path, "second_name", deprecated="moved")  # (another size)
    os.utime(xml, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    package_map = PackageMap.MakeEmpty()
    package_map.AddPackageXml(xml)
    assert package_map.Contains("second_name") and not package_map.Contains("first")
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        package_map.GetPath("second_name")
    assert "Package 'second_name' is deprecated: moved" in caplog.text
    os.remove(xml)
    with pytest.raises(RuntimeError, match="XML_ERROR_FILE_NOT_FOUND"):
        PackageMap.MakeEmpty().AddPackageXml(xml)
