# SPDX-License-Identifier: BSD-3-Clause
"""
    CuteLayout

NVIDIA CuTe's layout algebra from Julia, by `ccall` into libcutelayout (no
compiled glue).  The library is `ENV["CUTELAYOUT_LIBRARY"]` when set at load
time, else `libcutelayout.so.1` from the system's search path.

```julia
include("bindings/julia/CuteLayout.jl"); using .CuteLayout

L = Layout("(2,4):(1,2)")
L(3)                      # 3: CuTe's layout(i); coordinates are 0-based as in CuTe
string(L)                 # "(2,4):(1,2)"
CuteLayout.size(L), cosize(L), rank(L), depth(L)   # (8, 8, 2, 1)
string(composition(Layout("20:2"), Layout("(5,4):(4,1)")))   # "(5,4):(8,2)"
string(complement(Layout("4:1"), 24))                        # "6:4"
Layout("(2,4:(1,2)")      # throws CuteLayoutError(-3, "malformed text", "column ...")
```

`size` is not exported, so that it does not shadow `Base.size`.  The tests in
test/runtests.jl mirror bindings/python/test_cutelayout.py.
"""
module CuteLayout

export Layout, CuteLayoutError, cosize, rank, depth, composition, complement,
       logical_divide, logical_product, coalesce, right_inverse, left_inverse

const libcutelayout = get(ENV, "CUTELAYOUT_LIBRARY", "libcutelayout.so.1")

# The ABI this module was written against (common.h: CL_ABI_VERSION, CL_ABI_MINOR).
const ABI_VERSION = 1
const ABI_MINOR = 0

"""A failed library call: the `cl_status` code, its message, and `cl_last_error()`."""
struct CuteLayoutError <: Exception
    status::Cint
    message::String
    detail::String
end

Base.showerror(io::IO, e::CuteLayoutError) =
    print(io, "CuteLayoutError: ", e.message, isempty(e.detail) ? "" : ": " * e.detail)

function check(status::Cint)
    status == 0 && return nothing
    # The detail is thread-local in the library: read it right away.
    message = unsafe_string(ccall((:cl_status_string, libcutelayout), Cstring, (Cint,), status))
    detail = unsafe_string(ccall((:cl_last_error, libcutelayout), Cstring, ()))
    throw(CuteLayoutError(status, message, detail))
end

"""
    Layout(text)

CuTe's Layout, parsed from its canonical text such as `"(2,(2,2)):(4,(2,1))"`.
Owns a `cl_layout_t` handle, freed by the garbage collector's finalizer.
"""
mutable struct Layout
    ptr::Ptr{Cvoid}
    function Layout(ptr::Ptr{Cvoid})
        ptr == C_NULL && error("NULL layout handle")
        layout = new(ptr)
        finalizer(l -> ccall((:cl_layout_free, libcutelayout), Cvoid, (Ptr{Cvoid},), l.ptr), layout)
    end
end

function Layout(text::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall((:cl_layout_parse, libcutelayout), Cint, (Cstring, Ptr{Ptr{Cvoid}}), text, out))
    Layout(out[])
end

# Passing a Layout where C takes a cl_layout_t* keeps it rooted during the call.
Base.cconvert(::Type{Ptr{Cvoid}}, l::Layout) = l
Base.unsafe_convert(::Type{Ptr{Cvoid}}, l::Layout) = l.ptr

function Base.string(l::Layout)
    need = ccall((:cl_layout_format, libcutelayout), Int64, (Ptr{Cvoid}, Ptr{UInt8}, Csize_t), l, C_NULL, 0)
    buf = Vector{UInt8}(undef, need + 1)
    ccall((:cl_layout_format, libcutelayout), Int64, (Ptr{Cvoid}, Ptr{UInt8}, Csize_t), l, buf, length(buf))
    String(buf[1:need])
end

Base.show(io::IO, l::Layout) = print(io, "Layout(\"", string(l), "\")")
Base.:(==)(a::Layout, b::Layout) =
    ccall((:cl_layout_equal, libcutelayout), Cint, (Ptr{Cvoid}, Ptr{Cvoid}), a, b) != 0

"""`L(i)`: CuTe's `layout(i)` for a 0-based linear coordinate `i`."""
function (l::Layout)(i::Integer)
    index = Ref{Int64}(0)
    check(ccall((:cl_layout_eval, libcutelayout), Cint, (Ptr{Cvoid}, Int64, Ref{Int64}), l, i, index))
    index[]
end

size(l::Layout) = ccall((:cl_layout_size, libcutelayout), Int64, (Ptr{Cvoid},), l)
cosize(l::Layout) = ccall((:cl_layout_cosize, libcutelayout), Int64, (Ptr{Cvoid},), l)
rank(l::Layout) = ccall((:cl_layout_rank, libcutelayout), Int64, (Ptr{Cvoid},), l)
depth(l::Layout) = ccall((:cl_layout_depth, libcutelayout), Int64, (Ptr{Cvoid},), l)

# One wrapper per algebra function that returns a new layout.
for (name, sym) in ((:composition, :cl_composition), (:logical_divide, :cl_logical_divide),
                    (:logical_product, :cl_logical_product))
    @eval function $name(a::Layout, b::Layout)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall(($(QuoteNode(sym)), libcutelayout), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Ptr{Cvoid}}), a, b, out))
        Layout(out[])
    end
end
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

"""The library's version string, e.g. "0.1.0"."""
version() = unsafe_string(ccall((:cl_version_string, libcutelayout), Cstring, ()))

function __init__()
    major = ccall((:cl_abi_version, libcutelayout), Cint, ())
    minor = ccall((:cl_abi_minor, libcutelayout), Cint, ())
    (major == ABI_VERSION && minor >= ABI_MINOR) ||
        error("libcutelayout implements ABI $major.$minor; CuteLayout.jl needs $ABI_VERSION.$ABI_MINOR or a later minor")
end

end # module
