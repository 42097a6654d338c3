# SPDX-License-Identifier: BSD-3-Clause
"""Tensors spread over several ranks and the plans that redistribute them
(dist.h; docs/distributed.md).

    >>> from cutelayout.dist import Dist, Plan
    >>> a = Dist("dist((4,4), 2, Shard(0))")
    >>> str(a)
    'dist((4,4), 2, 8, ((2,2),(4),(1)):((4,8),(1),(0)))'
    >>> a.locate(2)
    (1, 0)
    >>> p = Plan(a, Dist("dist((4,4), 2, Shard(1))"), 4, rank=0)
    >>> p.pieces(1, "send")
    [(2, Layout('(2,2):(1,4)'))]

A distribution maps each global coordinate (and replica) to rank * L +
offset, L the local buffer's size.  A Plan is one rank's part of a
redistribution: for each peer, the pieces (offset, layout over the local
buffer) it sends and receives, in the same element order on both sides.

`Redistribution` runs plans under torch.distributed (torchrun): with the C
executor libcutelayout-nccl on a communicator made from the process group
where that library is built, else with torch alone (one all_to_all_single
of the packed pieces); it needs torch, which this module imports only
there."""
import ctypes
from ctypes import byref, c_int, c_int64, c_size_t, c_void_p

from ._ffi import Owned, capi, check, cl_placement_t, load_companion, out_call, snprintf_text
from ._handles import _Tuple
from ._layout import Layout

__all__ = ['Dist', 'NcclComm', 'Plan', 'Redistribution', 'nccl_available', 'placements']

_DIRECTIONS = {'send': 0, 'recv': 1}
_KINDS = {'Replicate': 0, 'Shard': 1, 'StridedShard': 2, 'BlockCyclic': 3}


def placements(shape, mesh, *places):
    """A Dist from a mesh and one placement per mesh dimension, each
    ('Shard', d), ('Replicate',), ('StridedShard', d, s) or
    ('BlockCyclic', d, b)."""
    arr = (cl_placement_t * len(places))()
    for i, p in enumerate(places):
        if not p or p[0] not in _KINDS:
            raise ValueError('a placement is one of %s, not %r' % (', '.join(_KINDS), p))
        arr[i] = cl_placement_t(_KINDS[p[0]], p[1] if len(p) > 1 else 0, p[2] if len(p) > 2 else 0)
    d = Dist.__new__(Dist)
    d._as_parameter_ = out_call(capi.cl_dist_from_placements, _Tuple(shape), _Tuple(mesh), arr, len(places))
    return d


def _layout_of(handle):
    """A Layout from a fresh cl_layout_t handle, which it frees."""
    try:
        return Layout(snprintf_text(capi.cl_layout_format, handle))
    finally:
        capi.cl_layout_free(handle)


class Dist(Owned):
    """A distribution, from its text: dist(SHAPE, RANKS, L, LAYOUT) or
    dist(SHAPE, MESH, PLACEMENT, ...)."""
    __slots__ = ('_as_parameter_', '__weakref__')
    _free = capi.cl_dist_free

    def __init__(self, text):
        self._as_parameter_ = out_call(capi.cl_dist_parse, text.encode())

    def __str__(self):
        return snprintf_text(capi.cl_dist_format, self)

    def __repr__(self):
        return 'Dist(%r)' % str(self)

    @property
    def ranks(self):
        return capi.cl_dist_ranks(self)

    @property
    def local_size(self):
        return capi.cl_dist_local_size(self)

    @property
    def replicas(self):
        return capi.cl_dist_replicas(self)

    @property
    def size(self):
        return capi.cl_dist_size(self)

    @property
    def shape(self):
        return _Tuple.adopt(out_call(capi.cl_dist_shape, self)).value()

    @property
    def layout(self):
        return _layout_of(out_call(capi.cl_dist_layout, self))

    def locate(self, i, replica=0):
        """(rank, offset) of replica `replica` of global index i."""
        rank, offset = c_int64(), c_int64()
        check(capi.cl_dist_locate(self, i, replica, byref(rank), byref(offset)))
        return rank.value, offset.value


class Plan(Owned):
    """Rank `rank`'s plan for moving elements of elem_size bytes from
    distribution src to dst."""
    __slots__ = ('_as_parameter_', '__weakref__')
    _free = capi.cl_dist_plan_free

    def __init__(self, src, dst, elem_size, rank):
        self._as_parameter_ = out_call(capi.cl_dist_plan_new, src, dst, elem_size, rank)

    @property
    def ranks(self):
        return capi.cl_dist_plan_ranks(self)

    @property
    def rank(self):
        return capi.cl_dist_plan_rank(self)

    @property
    def elem_size(self):
        return capi.cl_dist_plan_elem_size(self)

    @property
    def all_to_all(self):
        return bool(capi.cl_dist_plan_is_all_to_all(self))

    @property
    def hash(self):
        return capi.cl_dist_plan_hash(self)

    def _direction(self, direction):
        if direction not in _DIRECTIONS:
            raise ValueError("direction is 'send' or 'recv', not %r" % (direction,))
        return _DIRECTIONS[direction]

    def count(self, peer, direction='send'):
        """(elements, pieces) exchanged with peer in that direction."""
        elements, pieces = c_int64(), c_int64()
        check(capi.cl_dist_plan_peer(self, peer, self._direction(direction), byref(elements), byref(pieces)))
        return elements.value, pieces.value

    def pieces(self, peer, direction='send'):
        """The pieces exchanged with peer: a list of (offset, Layout)."""
        out = []
        for i in range(self.count(peer, direction)[1]):
            offset, layout = c_int64(), c_void_p()
            check(capi.cl_dist_plan_piece(self, peer, self._direction(direction), i, byref(offset), byref(layout)))
            out.append((offset.value, _layout_of(layout)))
        return out

    def offsets(self, peer, direction='send'):
        """Every local offset exchanged with peer, in order."""
        return [offset + layout(j) for offset, layout in self.pieces(peer, direction) for j in range(layout.size())]


def _flat(t):
    return [x for e in t for x in _flat(e)] if isinstance(t, tuple) else [t]


def _index_tensor(torch, plan, direction, device):
    """Every offset the plan lists in that direction, peer after peer, as
    one int64 tensor built piece by piece (mode 0 fastest, as a layout
    counts), never element by element in Python."""
    parts = []
    for q in range(plan.ranks):
        for offset, layout in plan.pieces(q, direction):
            index = torch.tensor([offset], dtype=torch.int64, device=device)
            shape, stride = _flat(layout.shape), _flat(layout.stride)
            for extent, step in reversed(list(zip(shape, stride))):
                steps = torch.arange(extent, dtype=torch.int64, device=device) * step
                index = (index[:, None] + steps[None, :]).reshape(-1)
            parts.append(index)
    if not parts:
        return torch.empty(0, dtype=torch.int64, device=device)
    return torch.cat(parts)


def _strided_pieces(plan, direction, limit):
    """The plan's pieces in that direction, peer after peer, as (start in
    the packed buffer, offset, sizes, strides) with torch's order (last
    mode fastest, so the layout's modes reversed); None when there are more
    than `limit` or a stride is negative (as_strided takes none)."""
    out, start = [], 0
    for q in range(plan.ranks):
        for offset, layout in plan.pieces(q, direction):
            shape, stride = _flat(layout.shape)[::-1], _flat(layout.stride)[::-1]
            if len(out) == limit or any(d < 0 for d in stride):
                return None
            out.append((start, offset, shape, stride))
            start += layout.size()
    return out


_nccl = None


def _nccl_library():
    """libcutelayout-nccl (nccl.h), loaded and declared on first use: from
    $CUTELAYOUT_NCCL_LIBRARY when it is set, else beside libcutelayout
    (installed, or the build tree's nccl/), else by the system's search.
    OSError when it is missing (a build without -Dnccl)."""
    global _nccl
    if _nccl is None:
        _nccl = load_companion('cutelayout-nccl', 'CUTELAYOUT_NCCL_LIBRARY',
                               'build cute-layout with -Dcuda=enabled -Dnccl=enabled', [
            ('cl_nccl_exec_new', c_int, [c_void_p, c_void_p, ctypes.POINTER(c_void_p)]),
            ('cl_nccl_exec_run', c_int, [c_void_p, c_void_p, c_void_p, c_void_p]),
            ('cl_nccl_exec_staging_bytes', c_size_t, [c_void_p]),
            ('cl_nccl_exec_free', None, [c_void_p])])
    return _nccl


def nccl_available():
    """Whether libcutelayout-nccl (the C executor) can be loaded."""
    try:
        _nccl_library()
        return True
    except OSError:
        return False


class _NcclUniqueId(ctypes.Structure):
    _fields_ = [('internal', ctypes.c_char * 128)]  # NCCL_UNIQUE_ID_BYTES


def _nccl_call(lib, name, *args):
    result = getattr(lib, name)(*args)
    if result != 0:
        lib.ncclGetErrorString.restype = ctypes.c_char_p
        raise RuntimeError('%s: %s' % (name, lib.ncclGetErrorString(result).decode()))


class NcclComm:
    """An NCCL communicator (ncclComm_t) over the ranks of a torch.distributed
    process group, on this process's current GPU: rank 0 of the group makes
    NCCL's unique id (ncclGetUniqueId through ctypes on the libnccl that
    libcutelayout-nccl loaded, the one torch loaded when it was first), the
    group broadcasts its 128 bytes, every rank calls ncclCommInitRank.  A
    collective call: every rank of the group must make it.  close() destroys
    it; one left open ends with the process (no destruction at interpreter
    shutdown, when the peers may be gone)."""

    def __init__(self, group=None):
        import torch.distributed as tdist
        _nccl_library()  # loads libnccl.so.2, or finds torch's
        self._lib = ctypes.CDLL('libnccl.so.2')
        uid = _NcclUniqueId()
        rank, size = tdist.get_rank(group), tdist.get_world_size(group)
        if rank == 0:
            _nccl_call(self._lib, 'ncclGetUniqueId', byref(uid))
        shared = [bytes(uid)]  # all 128 bytes (the field itself would stop at a zero)
        tdist.broadcast_object_list(shared, src=tdist.get_global_rank(group, 0) if group is not None else 0,
                                    group=group)
        ctypes.memmove(byref(uid), shared[0], ctypes.sizeof(uid))
        self.handle = c_void_p()
        self._lib.ncclCommInitRank.argtypes = [ctypes.POINTER(c_void_p), c_int, _NcclUniqueId, c_int]
        _nccl_call(self._lib, 'ncclCommInitRank', byref(self.handle), size, uid, rank)
        self.rank, self.size = rank, size

    def close(self):
        if self.handle:
            self._lib.ncclCommDestroy.argtypes = [c_void_p]
            self._lib.ncclCommDestroy(self.handle)
            self.handle = c_void_p()


_comms = {}


def _comm_of(group, device):
    """One communicator a (group, device), made on first use."""
    import torch
    key = (id(group), device.index)
    if key not in _comms:
        with torch.cuda.device(device):
            _comms[key] = NcclComm(group)
    return _comms[key]


class _Executor(Owned):
    """cl_nccl_exec_t of a plan over a communicator."""
    __slots__ = ('_as_parameter_', '_comm')

    def __init__(self, plan, comm):
        lib = _nccl_library()
        self._comm = comm  # outlives the executor
        handle = c_void_p()
        check(lib.cl_nccl_exec_new(plan, comm.handle, byref(handle)))
        self._as_parameter_ = handle

    @staticmethod
    def _free(handle):
        _nccl_library().cl_nccl_exec_free(handle)


class Redistribution:
    """src -> dst on this process's rank of a torch.distributed group.  The
    plan is made once, and every rank checks that all planned the same
    redistribution (a RuntimeError otherwise).

    executor='nccl' runs it with the C executor (libcutelayout-nccl,
    docs/distributed.md) on a communicator made once per group from it
    (NcclComm), on torch's current stream: contiguous pieces sent and
    received in place, the rest packed by the CUDA copy kernels.
    executor='torch' runs it with torch alone (its NCCL backend on GPUs):
    each call packs the local source into one send buffer, moves it with
    one all_to_all_single and unpacks it into the destination; packing
    copies each piece as a strided view when there are at most `max_pieces`
    of them, else gathers and scatters through index tensors built once (8
    bytes of index an element).  executor='auto' (the default) is 'nccl'
    where that library loads and the device is a GPU, else 'torch'.  Extra
    memory: the send and receive buffers, each at most the local shard
    times the replicas."""

    def __init__(self, src, dst, dtype, device, group=None, max_pieces=256, executor='auto'):
        import torch
        import torch.distributed as tdist
        if executor not in ('auto', 'nccl', 'torch'):
            raise ValueError("executor is 'auto', 'nccl' or 'torch', not %r" % (executor,))
        device = torch.device(device)
        if executor == 'auto':
            executor = 'nccl' if device.type == 'cuda' and nccl_available() else 'torch'
        self.executor = executor
        self.group = group
        rank = tdist.get_rank(group)
        elem = torch.empty((), dtype=dtype).element_size()
        self.plan = Plan(src, dst, elem, rank)
        self.dst_size = dst.local_size
        # All ranks must have planned the same redistribution.
        h = torch.tensor([self.plan.hash & 0x7FFFFFFFFFFFFFFF], dtype=torch.int64, device=device)
        hmax, hmin = h.clone(), h.clone()
        tdist.all_reduce(hmax, op=tdist.ReduceOp.MAX, group=group)
        tdist.all_reduce(hmin, op=tdist.ReduceOp.MIN, group=group)
        if hmax.item() != hmin.item():
            raise RuntimeError('the ranks planned different redistributions')
        self.send_pieces = self.recv_pieces = self._exec = None
        if executor == 'nccl':
            self._exec = _Executor(self.plan, _comm_of(group, device))
            return
        P = self.plan.ranks
        self.send_splits = [self.plan.count(q, 'send')[0] for q in range(P)]
        self.recv_splits = [self.plan.count(q, 'recv')[0] for q in range(P)]
        self.send_pieces = _strided_pieces(self.plan, 'send', max_pieces)
        self.recv_pieces = _strided_pieces(self.plan, 'recv', max_pieces)
        self.send_index = self.recv_index = None
        if self.send_pieces is None:
            self.send_index = _index_tensor(torch, self.plan, 'send', device)
        if self.recv_pieces is None:
            self.recv_index = _index_tensor(torch, self.plan, 'recv', device)

    def __call__(self, local, out=None):
        """The destination's local buffer (L elements; `out`, contiguous,
        when given) from the source's."""
        import torch
        import torch.distributed as tdist
        if out is None:
            out = torch.zeros(self.dst_size, dtype=local.dtype, device=local.device)
        if self._exec is not None:
            if not (local.is_contiguous() and out.is_contiguous()):
                raise ValueError('the C executor takes contiguous local buffers')
            stream = torch.cuda.current_stream(local.device).cuda_stream
            check(_nccl_library().cl_nccl_exec_run(self._exec, local.data_ptr(), out.data_ptr(), stream))
            return out
        local, flat_out = local.reshape(-1), out.reshape(-1)
        if self.send_pieces is None:
            sendbuf = local.index_select(0, self.send_index)
        else:
            sendbuf = torch.empty(sum(self.send_splits), dtype=local.dtype, device=local.device)
            for start, offset, shape, stride in self.send_pieces:
                n = 1
                for e in shape:
                    n *= e
                sendbuf[start:start + n].view(shape).copy_(local.as_strided(shape, stride, local.storage_offset() + offset))
        recvbuf = torch.empty(sum(self.recv_splits), dtype=local.dtype, device=local.device)
        tdist.all_to_all_single(recvbuf, sendbuf, self.recv_splits, self.send_splits, group=self.group)
        if self.recv_pieces is None:
            flat_out.index_copy_(0, self.recv_index, recvbuf)
        else:
            for start, offset, shape, stride in self.recv_pieces:
                n = 1
                for e in shape:
                    n *= e
                flat_out.as_strided(shape, stride, flat_out.storage_offset() + offset).copy_(recvbuf[start:start + n].view(shape))
        return out
