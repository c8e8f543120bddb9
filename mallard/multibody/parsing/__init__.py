"""Mirror of pydrake.multibody.parsing: Parser and PackageMap (URDF, SDFormat, MuJoCo XML and
model directives), the model directive types and their processing."""

from mallard._public import publish
from mallard.multibody.parsing._dmd import GetScopedFrameByName, ProcessModelDirectives
from mallard.multibody.parsing._model_directives import (
    AddCollisionFilterGroup,
    AddDirectives,
    AddFrame,
    AddModel,
    AddModelInstance,
    AddWeld,
    FlattenModelDirectives,
    LoadModelDirectives,
    LoadModelDirectivesFromString,
    ModelDirective,
    ModelDirectives,
    ModelInstanceInfo,
)
from mallard.multibody.parsing._package_map import PackageMap
from mallard.multibody.parsing._parser import Parser

__all__ = [
    "AddCollisionFilterGroup",
    "AddDirectives",
    "AddFrame",
    "AddModel",
    "AddModelInstance",
    "AddWeld",
    "FlattenModelDirectives",
    "GetScopedFrameByName",
    "LoadModelDirectives",
    "LoadModelDirectivesFromString",
    "ModelDirective",
    "ModelDirectives",
    "ModelInstanceInfo",
    "PackageMap",
    "Parser",
    "ProcessModelDirectives",
]

publish(globals())
