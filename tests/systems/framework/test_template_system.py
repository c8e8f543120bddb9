"""TemplateSystem and SystemScalarConverter: instantiation, construction, copy construction,
conversion through the converter, and the errors."""

import pytest

from mallard.autodiffutils import AutoDiffXd
from mallard.systems.framework import LeafSystem, LeafSystem_
from mallard.systems.scalar_conversion import SystemScalarConverter, TemplateSystem


def define(T_list=None):
    @TemplateSystem.define("Scaled_", T_list=T_list)
    def Scaled_(T):
        class Impl(LeafSystem_[T]):
            def _construct(self, k=2.0, converter=None):
                LeafSystem_[T].__init__(self, converter)
                self.k = k
                self.u = self.DeclareVectorInputPort("u", 1)
                self.DeclareVectorOutputPort("y", 1, self.calc)

            def _construct_copy(self, other, converter=None):
                Impl._construct(self, other.k, converter=converter)

            def calc(self, context, output):
                output[0] = self.k * self.u.Eval(context)[0]

        return Impl

    return Scaled_


def test_instantiation_and_conversion():
    Scaled_ = define()
    system = Scaled_[None](k=3.0)
    system.set_name("scaled")
    assert Scaled_[None] is Scaled_[float] and type(system).__name__ == "Scaled_𝓣float𝓤"
    converted = system.ToAutoDiffXd()
    assert isinstance(converted, Scaled_[AutoDiffXd]) and converted.k == 3.0
    assert converted.get_name() == "scaled"
    assert Scaled_.is_instantiation(Scaled_[AutoDiffXd])
    assert Scaled_.get_instantiation(AutoDiffXd) == (Scaled_[AutoDiffXd], (AutoDiffXd,))
    assert repr(Scaled_).startswith("<TemplateSystem tests.systems.framework")
    assert Scaled_.get_module_name() == __name__
    assert Scaled_.get_param_set(Scaled_[AutoDiffXd]) == {(AutoDiffXd,)}
    assert Scaled_.get_param_set(int) == set()

    class Derived(Scaled_[AutoDiffXd]):
        pass

    assert Scaled_.is_subclass_of_instantiation(Derived) is Scaled_[AutoDiffXd]
    assert Scaled_.is_subclass_of_instantiation(int) is None
    assert not Scaled_.is_instantiation(Derived)
    converter = Scaled_._make_converter()
    assert converter.IsConvertible[AutoDiffXd, float]()
    assert not converter.IsConvertible[float, float]()
    with pytest.raises(RuntimeError, match="a copy of the same scalar type is not a conversion"):
        Scaled_[float](system)


def test_restricted_instantiations():
    Scaled_ = define(T_list=[float, AutoDiffXd])
    system = Scaled_[float]()
    with pytest.raises(RuntimeError, match=r"Invalid instantiation: Scaled_\[Expression\]"):
        Scaled_["Expression"]
    from mallard.symbolic import Expression

    assert Scaled_.get_instantiation(Expression, throw_error=False) == (None, (Expression,))
    with pytest.raises(RuntimeError, match="does not support scalar conversion"):
        system.ToSymbolic()


def test_errors():
    with pytest.raises(TypeError, match="converter must be a SystemScalarConverter"):
        LeafSystem(converter=object())
    assert LeafSystem(converter=SystemScalarConverter())._converter is not None

    @TemplateSystem.define("Bad_")
    def Bad_(T):
        return int

    with pytest.raises(TypeError, match="the function must return a LeafSystem"):
        Bad_[float]

    scoped = TemplateSystem("Scoped_", scope=LeafSystem)
    with pytest.raises(RuntimeError, match="a scope that is not a module"):
        scoped.get_module_name()
    assert TemplateSystem("Here_").get_module_name() == __name__

    @TemplateSystem.define("NoCopy_")
    def NoCopy_(T):
        class Impl(LeafSystem_[T]):
            def _construct(self, converter=None):
                LeafSystem_[T].__init__(self, converter)

        return Impl

    with pytest.raises(TypeError, match="must define _construct_copy"):
        NoCopy_[float]
