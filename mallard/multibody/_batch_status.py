"""BatchStatus: what each state of a BatchedPlant call came to (mallard.multibody.batch)."""

import numpy as np


class BatchStatus:
    """Each state's status after a BatchedPlant call made with ``return_status=True``.

    ``ok`` is a bool array of shape (N,): True where the state's results were computed; a
    state that was not has NaN in all of its results, and :meth:`message` says why: an input
    that is NaN or infinite (naming the argument, the element and the joint or actuator it
    belongs to), a quaternion with all four elements zero (naming its joint), or, for forward
    dynamics, an articulated inertia that is not positive definite (the plant's message).
    ``len(status)`` is N; ``status.failed()`` the indices of the states not computed;
    ``status.raise_if_failed()`` raises the first one's message as a RuntimeError.
    """

    __slots__ = ("ok", "_codes", "_describe", "_method")

    def __init__(self, method, codes, describe):
        """``codes``: the kernels' status codes (0: computed); ``describe(i)``: the message of
        state i (not computed)."""
        self._method = method
        self._codes = codes
        self._describe = describe
        self.ok = codes == 0

    def __len__(self):
        return self.ok.shape[0]

    def __repr__(self):
        failed = self.failed()
        text = f"<BatchStatus of {self._method}(): {failed.size} of {len(self)} states failed"
        if failed.size:
            text += f"; {self.message(int(failed[0]))}"
        return text + ">"

    def failed(self):
        """The indices of the states whose results were not computed (NaN), in order."""
        return np.flatnonzero(~self.ok)

    def message(self, i):
        """Why state ``i`` was not computed ("state i: ..."), or None if it was."""
        i = int(i)
        if not -len(self) <= i < len(self):
            raise IndexError(f"BatchStatus: state {i} is out of range for {len(self)} states")
        i %= len(self)
        return None if self.ok[i] else f"state {i}: {self._describe(i)}"

    def messages(self):
        """{i: message} for every state not computed."""
        return {int(i): self.message(i) for i in self.failed()}

    def raise_if_failed(self):
        """RuntimeError with the message of the first state not computed, if any."""
        failed = self.failed()
        if failed.size:
            raise RuntimeError(f"BatchedPlant.{self._method}(): {self.message(failed[0])}")
