# SPDX-License-Identifier: BSD-3-Clause
"""
    CuteLayout

NVIDIA CuTe's layout algebra from Julia, by `ccall` into libcutelayout (no
compiled glue).  The library is `ENV["CUTELAYOUT_LIBRARY"]` when set at load
time, else `libcutelayout.so.1` from the system's search path.

```julia
using CuteLayout

L = Layout("(2,4):(1,2)")
L(3)                        # 3: CuTe's layout(i); coordinates are 0-based as in CuTe
length(L), cosize(L)        # (8, 8)
CuteLayout.rank(L)          # 2 (not exported: LinearAlgebra has a rank)
print(L)                    # (2,4):(1,2)
composition(Layout("20:2"), Layout("(5,4):(4,1)"))     # Layout("(5,4):(8,2)")
complement(Layout("4:1"), 24)                          # Layout("6:4")
indices(Layout("(2,2):(2,1)"))                         # [0, 2, 1, 3]

A = collect(Float32, 1:16)
T = Tensor(A, Layout("(4,4):(4,1)"))   # A's memory through a layout (0-based offsets)
T[1]                                   # A[4 + 1]: T(1) = A at offset L(1)
B = zeros(Float32, 16)
copyto!(Tensor(B, Layout("(4,4):(1,4)")), T)           # the library's fast copy: B is A transposed
```

`length(L)` is CuTe's `size(L)`; `size`, `rank` and `depth` are
`CuteLayout.size`, `CuteLayout.rank`, `CuteLayout.depth`, not exported, so
that they do not clash with `Base.size` and `LinearAlgebra.rank`.
"""
module CuteLayout

export Layout, Tensor, CuteLayoutError, cosize, indices, composition, complement, coalesce, right_inverse,
       left_inverse, logical_divide, zipped_divide, tiled_divide, logical_product, zipped_product, tiled_product,
       blocked_product, raked_product

const libcutelayout = get(ENV, "CUTELAYOUT_LIBRARY", "libcutelayout.so.1")

# The ABI this module was written against (common.h: CL_ABI_VERSION, CL_ABI_MINOR).
const ABI_VERSION = 1
const ABI_MINOR = 0

# ------------------------------------------------------------------ errors

"""A failed library call: the `cl_status` code, its message, and `cl_last_error()`."""
struct CuteLayoutError <: Exception
    status::Cint
    message::String
    detail::String
end

Base.showerror(io::IO, e::CuteLayoutError) =
    print(io, "CuteLayoutError: ", e.message, isempty(e.detail) ? "" : ": " * e.detail)

function check(status::Integer)
    status >= 0 && return status
    # The detail is thread-local in the library: read it right away.
    message = unsafe_string(ccall((:cl_status_string, libcutelayout), Cstring, (Cint,), status))
    detail = unsafe_string(ccall((:cl_last_error, libcutelayout), Cstring, ()))
    throw(CuteLayoutError(status, message, detail))
end

# ------------------------------------------------------------------ layouts

"""
    Layout(text)

CuTe's Layout, parsed from its canonical text such as `"(2,(2,2)):(4,(2,1))"`.
Owns a `cl_layout_t` handle, freed by the garbage collector's finalizer.
Layouts are immutable values: `==` and `hash` compare them as CuTe does.
"""
mutable struct Layout
    ptr::Ptr{Cvoid}
    function Layout(ptr::Ptr{Cvoid})
        ptr == C_NULL && error("NULL layout handle")
        layout = new(ptr)
        finalizer(l -> ccall((:cl_layout_free, libcutelayout), Cvoid, (Ptr{Cvoid},), l.ptr), layout)
    end
end

# Text for the C library, which reads up to the first NUL: a NUL inside the
# text is refused as the library refuses malformed text (status CL_E_PARSE,
# naming its column), not cut short or left to Base's ArgumentError.
const CL_E_PARSE = Cint(-3)
function c_text(text::AbstractString)
    nul = findfirst(==('\0'), text)
    nul === nothing && return text
    column = length(text, 1, prevind(text, nul)) + 1
    throw(CuteLayoutError(CL_E_PARSE, "malformed text", "column $column: the text holds a NUL byte"))
end

function Layout(text::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall((:cl_layout_parse, libcutelayout), Cint, (Cstring, Ptr{Ptr{Cvoid}}), c_text(text), out))
    Layout(out[])
end

# Passing a Layout where C takes a cl_layout_t* keeps it rooted during the call.
Base.cconvert(::Type{Ptr{Cvoid}}, l::Layout) = l
Base.unsafe_convert(::Type{Ptr{Cvoid}}, l::Layout) = l.ptr

"""The text of an snprintf-style formatter `fn(handle, buf, cap)`."""
function formatted(fn::Symbol, handle)
    need = check(ccall((fn, libcutelayout), Int64, (Ptr{Cvoid}, Ptr{UInt8}, Csize_t), handle, C_NULL, 0))
    buf = Vector{UInt8}(undef, need + 1)
    check(ccall((fn, libcutelayout), Int64, (Ptr{Cvoid}, Ptr{UInt8}, Csize_t), handle, buf, length(buf)))
    String(buf[1:need])
end

Base.print(io::IO, l::Layout) = print(io, formatted(:cl_layout_format, l))
Base.show(io::IO, l::Layout) = print(io, "Layout(\"", l, "\")")
Base.:(==)(a::Layout, b::Layout) =
    ccall((:cl_layout_equal, libcutelayout), Cint, (Ptr{Cvoid}, Ptr{Cvoid}), a, b) != 0
# Equal layouts have equal canonical texts.
Base.hash(l::Layout, h::UInt) = hash(sprint(print, l), hash(:CuteLayout_Layout, h))

"""`L(i)`: CuTe's `layout(i)` for a 0-based linear coordinate `i`."""
function (l::Layout)(i::Integer)
    index = Ref{Int64}(0)
    check(ccall((:cl_layout_eval, libcutelayout), Cint, (Ptr{Cvoid}, Int64, Ref{Int64}), l, i, index))
    index[]
end

function checked_size(fn::Symbol, l::Layout)
    out = Ref{Int64}(0)
    check(ccall((fn, libcutelayout), Cint, (Ptr{Cvoid}, Ref{Int64}), l, out))
    out[]
end

"""CuTe's `size(L)`, the number of coordinates (also `length(L)`)."""
size(l::Layout) = checked_size(:cl_layout_size_checked, l)
Base.length(l::Layout) = size(l)
"""CuTe's `cosize(L)`: one more than the largest index."""
cosize(l::Layout) = checked_size(:cl_layout_cosize_checked, l)
rank(l::Layout) = ccall((:cl_layout_rank, libcutelayout), Int64, (Ptr{Cvoid},), l)
depth(l::Layout) = ccall((:cl_layout_depth, libcutelayout), Int64, (Ptr{Cvoid},), l)

# Iteration gives L(0), L(1), ..., L(size-1).
Base.iterate(l::Layout, i::Int = 0) = i < length(l) ? (l(i), i + 1) : nothing
Base.eltype(::Type{Layout}) = Int64

"""`indices(L)`: the vector `[L(0), ..., L(size-1)]`, written by the library in one call."""
function indices(l::Layout)
    out = Vector{Int64}(undef, length(l))
    check(ccall((:cl_layout_eval_range, libcutelayout), Cint, (Ptr{Cvoid}, Int64, Int64, Ptr{Int64}),
                l, 0, length(out), out))
    out
end

# ------------------------------------------------------------------ the algebra

# One wrapper per function of two layouts that returns a new layout.
for (name, sym) in ((:composition, :cl_composition), (:logical_divide, :cl_logical_divide),
                    (:zipped_divide, :cl_zipped_divide), (:tiled_divide, :cl_tiled_divide),
                    (:logical_product, :cl_logical_product), (:zipped_product, :cl_zipped_product),
                    (:tiled_product, :cl_tiled_product), (:blocked_product, :cl_blocked_product),
                    (:raked_product, :cl_raked_product))
    @eval function $name(a::Layout, b::Layout)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall(($(QuoteNode(sym)), libcutelayout), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Ptr{Cvoid}}), a, b, out))
        Layout(out[])
    end
end
# ... and of one layout.
for (name, sym) in ((:coalesce, :cl_coalesce), (:right_inverse, :cl_right_inverse),
                    (:left_inverse, :cl_left_inverse), (:complement, :cl_complement_full))
    @eval function $name(a::Layout)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall(($(QuoteNode(sym)), libcutelayout), Cint, (Ptr{Cvoid}, Ptr{Ptr{Cvoid}}), a, out))
        Layout(out[])
    end
end

"""`complement(L, cotarget)`: the ordered layout disjoint from L covering [0, cotarget) with it."""
function complement(a::Layout, cotarget::Integer)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall((:cl_complement, libcutelayout), Cint, (Ptr{Cvoid}, Int64, Ptr{Ptr{Cvoid}}), a, cotarget, out))
    Layout(out[])
end

# ------------------------------------------------------------------ tensors

# tensor.h's cl_tensor_desc, member for member.
struct TensorDesc
    struct_size::Csize_t
    data::Ptr{Cvoid}
    elem_size::Csize_t
    dtype::Cint
    extent_base::Ptr{Cvoid}
    extent_bytes::Csize_t
end

"""
    Tensor(A::Array, layout)

CuTe's Tensor over a Julia array: element `i` (0-based, CuTe's `T(i)`) is
`A[layout(i) + 1]`.  The library knows the array's extent, so a layout that
reaches outside it is refused (`CuteLayoutError`, CL_E_BOUNDS).  Holds the
array while it lives.  `copyto!(dst, src)` copies with the library's fast copy.
"""
mutable struct Tensor{T}
    ptr::Ptr{Cvoid}
    array::Array{T}
    layout::Layout
    function Tensor(A::Array{T}, layout::Layout) where {T}
        isbitstype(T) || throw(ArgumentError("a Tensor views arrays of plain bits types, not $T"))
        out = Ref{Ptr{Cvoid}}(C_NULL)
        GC.@preserve A begin
            base = Ptr{Cvoid}(pointer(A))
            desc = Ref(TensorDesc(Base.sizeof(TensorDesc), base, Base.sizeof(T), 0, base, Base.sizeof(A)))
            check(ccall((:cl_tensor_create, libcutelayout), Cint, (Ref{TensorDesc}, Ptr{Cvoid}, Ptr{Ptr{Cvoid}}),
                        desc, layout, out))
        end
        t = new{T}(out[], A, layout)
        finalizer(x -> ccall((:cl_tensor_free, libcutelayout), Cvoid, (Ptr{Cvoid},), x.ptr), t)
    end
end

Base.cconvert(::Type{Ptr{Cvoid}}, t::Tensor) = t
Base.unsafe_convert(::Type{Ptr{Cvoid}}, t::Tensor) = t.ptr
Base.length(t::Tensor) = length(t.layout)
Base.getindex(t::Tensor, i::Integer) = t.array[t.layout(i) + 1]
Base.setindex!(t::Tensor, v, i::Integer) = (t.array[t.layout(i) + 1] = v)
Base.show(io::IO, t::Tensor{T}) where {T} = print(io, "Tensor{", T, "}(", t.layout, ")")

"""`copyto!(dst, src)`: `dst(i) = src(i)` for every i, by the library's copy engine."""
function Base.copyto!(dst::Tensor{T}, src::Tensor{T}) where {T}
    GC.@preserve dst src check(ccall((:cl_tensor_copy, libcutelayout), Cint, (Ptr{Cvoid}, Ptr{Cvoid}), dst, src))
    dst
end

"""The library's version string, e.g. "0.1.0"."""
version() = unsafe_string(ccall((:cl_version_string, libcutelayout), Cstring, ()))

function __init__()
    major = ccall((:cl_abi_version, libcutelayout), Cint, ())
    minor = ccall((:cl_abi_minor, libcutelayout), Cint, ())
    (major == ABI_VERSION && minor >= ABI_MINOR) ||
        error("libcutelayout implements ABI $major.$minor; CuteLayout.jl needs $ABI_VERSION.$ABI_MINOR or a later minor")
end

end # module
