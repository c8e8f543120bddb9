"""Linearize and FirstOrderTaylorApproximation (the system's first-order expansion about the
operating point in a Context, differentiated with AutoDiffXd), and the controllability and
observability tests of a LinearSystem."""

import numpy as np

from mallard.autodiffutils import ExtractGradient, ExtractValue, InitializeAutoDiffTuple
from mallard.systems.framework._context import Context
from mallard.systems.framework._indices import InputPortSelection, OutputPortSelection
from mallard.systems.framework._ports import PortDataType
from mallard.systems.framework._system import System
from mallard.systems.primitives._affine_system import AffineSystem, LinearSystem

_NOT_AN_EQUILIBRIUM = (
    "The nominal operating point (x0,u0) is not an equilibrium point of the system.  Without "
    "additional information, a time-invariant linearization of this system is not well "
    "defined."
)


def _selected(ports, selection, kind):
    """The port ``selection`` names (an index, or kNo*/kUseFirst*IfItExists), or None."""
    if selection in (InputPortSelection.kNoInput, OutputPortSelection.kNoOutput):
        return None
    if selection in (
        InputPortSelection.kUseFirstInputIfItExists,
        OutputPortSelection.kUseFirstOutputIfItExists,
    ):
        return ports[0] if ports else None
    index = int(selection)
    if not 0 <= index < len(ports):
        raise RuntimeError(
            f"there is no {kind} port with index {index} (the system has {len(ports)})"
        )
    return ports[index]


def _taylor(system, context, input_port_index, output_port_index, tolerance):
    """(A, B, f0, C, D, y0, time_period) of the expansion about ``context``; RuntimeError if
    ``tolerance`` is given and the point is not an equilibrium to that tolerance."""
    if not isinstance(system, System):
        raise TypeError(f"expected a System, got {type(system).__name__}")
    if not isinstance(context, Context):
        raise TypeError(f"expected a Context, got {type(context).__name__}")
    system.ValidateContext(context)
    discrete = context.has_only_discrete_state() and context.num_discrete_state_groups() == 1
    if not (context.is_stateless() or context.has_only_continuous_state() or discrete):
        raise RuntimeError(
            "Linearize/FirstOrderTaylorApproximation: the system must have only continuous "
            "state, only one group of discrete state, or no state"
        )
    time_period = 0.0
    if discrete:
        attribute = system.GetUniquePeriodicDiscreteUpdateAttribute()
        if attribute is None:
            raise RuntimeError(
                "Linearize/FirstOrderTaylorApproximation: a discrete system must have one "
                "periodic discrete update (one period and offset)"
            )
        time_period = attribute.period_sec()

    ad_system = system.ToAutoDiffXd()
    ad_context = ad_system.CreateDefaultContext()
    ad_context.SetTimeStateAndParametersFrom(context)
    ad_system.FixInputPortsFrom(system, context, ad_context)
    input_port = _selected(ad_system._input_ports, input_port_index, "input")
    output_port = _selected(ad_system._output_ports, output_port_index, "output")
    if input_port is not None and input_port.get_data_type() == PortDataType.kAbstractValued:
        raise RuntimeError(
            "Port requested for differentiation is abstract, and differentiation of abstract "
            "ports is not supported."
        )
    if context.is_stateless():
        x0 = np.zeros(0)
    elif discrete:
        x0 = context.get_discrete_state(0).CopyToVector()
    else:
        x0 = context.get_continuous_state_vector().CopyToVector()
    n = x0.size
    m = 0 if input_port is None else input_port.size()
    u0 = np.zeros(m)
    if input_port is not None:
        u0 = system.get_input_port(input_port.get_index()).Eval(context)
    x_ad, u_ad = (a.reshape(-1) for a in InitializeAutoDiffTuple(x0, u0))
    if input_port is not None:
        input_port.FixValue(ad_context, u_ad)

    A, B, f0 = np.zeros((n, n)), np.zeros((n, m)), np.zeros(n)
    if n:
        if discrete:
            ad_context.SetDiscreteState(0, x_ad)
            x1_ad = ad_system.EvalUniquePeriodicDiscreteUpdate(ad_context).get_vector(0)
            x1_ad = x1_ad.CopyToVector()
        else:
            ad_context.SetContinuousState(x_ad)
            x1_ad = ad_system.EvalTimeDerivatives(ad_context).CopyToVector()
        AB = ExtractGradient(x1_ad, n + m)
        A, B = AB[:, :n], AB[:, n:]
        x1 = ExtractValue(x1_ad).reshape(-1)
        if tolerance is not None and not _is_zero(x1 - x0 if discrete else x1, tolerance):
            raise RuntimeError(_NOT_AN_EQUILIBRIUM)
        f0 = x1 - A @ x0 - B @ u0
    p = 0 if output_port is None else output_port.size()
    C, D, y0 = np.zeros((p, n)), np.zeros((p, m)), np.zeros(p)
    if output_port is not None:
        y_ad = np.asarray(output_port.Eval(ad_context), dtype=object).reshape(-1)
        CD = ExtractGradient(y_ad, n + m)
        C, D = CD[:, :n], CD[:, n:]
        y0 = ExtractValue(y_ad).reshape(-1) - C @ x0 - D @ u0
    return A, B, f0, C, D, y0, time_period


def _is_zero(v, tolerance):
    """Eigen's isZero(tolerance): every |vᵢ| <= tolerance."""
    return bool(np.all(np.abs(v) <= tolerance))


def Linearize(
    system,
    context,
    input_port_index=InputPortSelection.kUseFirstInputIfItExists,
    output_port_index=OutputPortSelection.kUseFirstOutputIfItExists,
    equilibrium_check_tolerance=1e-6,
):
    """The LinearSystem approximating ``system`` about the operating point (x0, u0) of
    ``context``, in the coordinates x - x0, u - u0, y - y(x0, u0). The system must support
    ToAutoDiffXd; its other vector inputs are held at their values in ``context``.
    RuntimeError unless (x0, u0) is an equilibrium to ``equilibrium_check_tolerance`` (ẋ = 0,
    or x[n+1] = x[n] for a discrete system, whose period the result takes)."""
    A, B, _, C, D, _, period = _taylor(
        system, context, input_port_index, output_port_index, float(equilibrium_check_tolerance)
    )
    return LinearSystem(A, B, C, D, period)


def FirstOrderTaylorApproximation(
    system,
    context,
    input_port_index=InputPortSelection.kUseFirstInputIfItExists,
    output_port_index=OutputPortSelection.kUseFirstOutputIfItExists,
):
    """The AffineSystem approximating ``system`` to first order about the operating point of
    ``context`` (any point, not only an equilibrium), in the original coordinates."""
    return AffineSystem(*_taylor(system, context, input_port_index, output_port_index, None))


def _check_continuous(sys, function):
    if not isinstance(sys, LinearSystem):
        raise TypeError(f"{function}(): expected a LinearSystem, got {type(sys).__name__}")
    if sys.time_period() != 0.0:
        raise RuntimeError(f"{function}(): only continuous-time systems are supported")


def ControllabilityMatrix(sys):
    """[B, AB, ..., Aⁿ⁻¹B] of a continuous-time LinearSystem."""
    _check_continuous(sys, "ControllabilityMatrix")
    A, B = sys.A(), sys.B()
    blocks = [B]
    for _ in range(1, A.shape[0]):
        blocks.append(A @ blocks[-1])
    return np.hstack(blocks)


def ObservabilityMatrix(sys):
    """[C; CA; ...; CAⁿ⁻¹] of a continuous-time LinearSystem."""
    _check_continuous(sys, "ObservabilityMatrix")
    A, C = sys.A(), sys.C()
    blocks = [C]
    for _ in range(1, A.shape[0]):
        blocks.append(blocks[-1] @ A)
    return np.vstack(blocks)


def _rank(M, threshold):
    """The numerical rank of M: singular values above ``threshold`` times the largest (by
    default, the machine epsilon times the larger dimension, as Eigen's QR)."""
    if M.size == 0:
        return 0
    s = np.linalg.svd(M, compute_uv=False)
    if threshold is None:
        threshold = np.finfo(float).eps * max(M.shape)
    return int(np.sum(s > float(threshold) * s[0])) if s[0] > 0 else 0


def IsControllable(sys, threshold=None):
    """Whether the controllability matrix has full row rank."""
    return _rank(ControllabilityMatrix(sys), threshold) == sys.A().shape[0]


def IsObservable(sys, threshold=None):
    """Whether the observability matrix has full column rank."""
    return _rank(ObservabilityMatrix(sys), threshold) == sys.A().shape[0]


def _uncontrollable_modes_are_stable(A, B, continuous, threshold):
    """The PBH test: rank [λI - A, B] = n for every eigenvalue λ with Re λ >= 0 (continuous)
    or |λ| >= 1 (discrete)."""
    n = A.shape[0]
    for lam in np.linalg.eigvals(A):
        unstable = lam.real >= 0 if continuous else abs(lam) >= 1
        if unstable and _rank(np.hstack([lam * np.eye(n) - A, B]), threshold) < n:
            return False
    return True


def IsStabilizable(sys, threshold=None):
    """Whether every unstable mode of the LinearSystem is controllable (the PBH test)."""
    if not isinstance(sys, LinearSystem):
        raise TypeError(f"IsStabilizable(): expected a LinearSystem, got {type(sys).__name__}")
    return _uncontrollable_modes_are_stable(sys.A(), sys.B(), sys.time_period() == 0.0, threshold)


def IsDetectable(sys, threshold=None):
    """Whether every unstable mode of the LinearSystem is observable (the PBH test)."""
    if not isinstance(sys, LinearSystem):
        raise TypeError(f"IsDetectable(): expected a LinearSystem, got {type(sys).__name__}")
    return _uncontrollable_modes_are_stable(
        sys.A().T, sys.C().T, sys.time_period() == 0.0, threshold
    )
