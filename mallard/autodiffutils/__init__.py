"""Mirror of pydrake.autodiffutils: the AutoDiffXd scalar and its matrix helpers."""

from mallard._public import publish
from mallard.autodiffutils._autodiff import AutoDiffXd, autodiff_equal_to
from mallard.autodiffutils._gradient import (
    ExtractGradient,
    ExtractValue,
    InitializeAutoDiff,
    InitializeAutoDiffTuple,
)

__all__ = [
    "AutoDiffXd",
    "ExtractGradient",
    "ExtractValue",
    "InitializeAutoDiff",
    "InitializeAutoDiffTuple",
    "autodiff_equal_to",
]

publish(globals())
