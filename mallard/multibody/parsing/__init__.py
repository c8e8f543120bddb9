"""Mirror of pydrake.multibody.parsing: Parser and PackageMap (URDF and SDFormat models)."""

from mallard._public import publish
from mallard.multibody.parsing._package_map import PackageMap
from mallard.multibody.parsing._parser import Parser

__all__ = ["PackageMap", "Parser"]

publish(globals())
