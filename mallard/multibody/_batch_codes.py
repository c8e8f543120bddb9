"""The codes the batched kernels (kernels.batch) share with BatchedPlant, kept numba-free.

A thread's part in a call (``mode``), a group's state in a call's ``flags`` and where its
parts are, and the status codes of states (``kind + KINDS · detail``): see kernels.batch.
"""

#: A thread's part in a call: a helper, the caller (who returns the results), or the caller
#: alone (no other thread: no atomic operations).
HELPER, CALLER, ALONE = 0, 1, 2

#: A group's state in ``flags``.
FREE, CLAIMED, STOLEN, COMMITTING, DONE = 0, 1, 2, 3, 4
#: Where ``flags`` holds the next group to hand out, the caller's scan, and the groups' states.
NEXT, SCAN, GROUPS = 0, 1, 2

#: A state's status: ``kind + KINDS · detail``, 0 for a state computed. NONFINITE: an input
#: is NaN or infinite (detail: ``argument + ARGUMENTS · column``); ZERO_QUATERNION: the
#: quaternion of mobod ``detail`` is zero; NOT_POSITIVE_DEFINITE: mobod ``detail``'s
#: articulated inertia across its mobilizer is not positive definite.
NONFINITE, ZERO_QUATERNION, NOT_POSITIVE_DEFINITE = 1, 2, 3
KINDS = 4
ARGUMENTS = 8
