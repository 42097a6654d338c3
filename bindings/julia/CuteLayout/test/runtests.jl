# SPDX-License-Identifier: BSD-3-Clause
# Tests of the CuteLayout package, mirroring bindings/python/tests/test_cutelayout.py:
#   CUTELAYOUT_LIBRARY=$PWD/build/src/libcutelayout.so.1 julia --project=bindings/julia/CuteLayout -e 'using Pkg; Pkg.test()'
using Test
using CuteLayout

# layout(i) from the definition, for a flat shape and stride.
function by_definition(shape, stride, i)
    index = 0
    for k in eachindex(shape)
        c = k == lastindex(shape) ? i : i % shape[k]
        i = div(i, shape[k])
        index += c * stride[k]
    end
    index
end

@testset "CuteLayout" begin
    @testset "text" begin
        for t in ["8:1", "(2,4):(1,2)", "(2,(2,2)):(4,(2,1))", "((2,3),4):((1,2),6)", "(8):(1)"]
            @test string(Layout(t)) == t
        end
        @test string(Layout(" ( 2 , 4 ) : ( 1 , 2 ) ")) == "(2,4):(1,2)"
    end
    @testset "evaluation is the definition" begin
        for s0 in 1:3, s1 in 1:3, d0 in 0:4, d1 in 0:4
            L = Layout("($s0,$s1):($d0,$d1)")
            @test [L(i) for i in 0:length(L)-1] == [by_definition((s0, s1), (d0, d1), i) for i in 0:s0*s1-1]
        end
        M = Layout("(2,(2,2)):(4,(2,1))")
        @test [M(i) for i in 0:7] == [0, 4, 2, 6, 1, 5, 3, 7]
        @test (length(M), cosize(M), CuteLayout.rank(M), CuteLayout.depth(M)) == (8, 8, 2, 2)
        @test collect(M) == [0, 4, 2, 6, 1, 5, 3, 7] == indices(M)
        @test sprint(show, M) == "Layout(\"(2,(2,2)):(4,(2,1))\")"
        @test hash(Layout("(2,4):(1,2)")) == hash(Layout(" (2,4) : (1,2) "))
        @test length(Set([Layout("8:1"), Layout("8:1"), Layout("8:2")])) == 2
        @test Layout("(2,4):(1,2)") == Layout("(2,4):(1,2)")
        @test Layout("(2,4):(1,2)") != Layout("(2,4):(4,1)")
    end
    @testset "errors" begin
        e = try Layout("(2,4):(1,2"); nothing catch err; err end
        @test e isa CuteLayoutError && e.status == -3 && occursin("column", e.detail)
        @test_throws CuteLayoutError Layout("")
        # Issue 23: a NUL inside the text is refused, not cut short at it.
        e = try Layout("8:1\0junk"); nothing catch err; err end
        @test e isa CuteLayoutError && e.status == -3 && e.detail == "column 4: the text holds a NUL byte"
        # and a negative extent means nothing to CuTe
        e = try Layout("-4:1"); nothing catch err; err end
        @test e isa CuteLayoutError && e.status == -7 && occursin("negative extent -4", e.detail)
    end
    @testset "algebra" begin
        @test string(composition(Layout("20:2"), Layout("(5,4):(4,1)"))) == "(5,4):(8,2)"
        @test string(composition(Layout("(4,8):(8,1)"), Layout("4:2"))) == "(2,2):(16,1)"
        @test string(complement(Layout("4:1"), 24)) == "6:4"
        @test string(complement(Layout("(2,2):(1,6)"))) == "3:2"
        @test string(logical_divide(Layout("(4,2,3):(2,1,8)"), Layout("4:2"))) == "((2,2),(2,3)):((4,1),(2,8))"
        @test string(logical_product(Layout("(2,2):(4,1)"), Layout("6:1"))) == "((2,2),(2,3)):((4,1),(2,8))"
        e = try composition(Layout("(4,3):(3,1)"), Layout("2:6")); nothing catch err; err end
        @test e isa CuteLayoutError && e.status == -6
    end
    @testset "tensors over arrays" begin
        A = collect(Float32, 1:16)
        T = Tensor(A, Layout("(4,4):(4,1)"))
        @test [T[i] for i in 0:15] == [A[T.layout(i) + 1] for i in 0:15]
        B = zeros(Float32, 16)
        copyto!(Tensor(B, Layout("(4,4):(1,4)")), T)
        @test reshape(B, 4, 4) == permutedims(reshape(A, 4, 4))
        # A layout that reaches past the array is refused.
        @test_throws CuteLayoutError Tensor(A, Layout("(4,5):(1,4)"))
    end
end
