/* SPDX-License-Identifier: BSD-3-Clause */
/* test_tuple.c: IntTuples (tuple.h): making and inspecting them, CuTe's
 * int_tuple.hpp and stride.hpp operations, their error paths, and properties
 * checked exhaustively on generated small shapes. */
#include "test_util.h"

/* ------------------------------------------------------------------ golden
 * Answers of CuTe C++ with every integer static (Int<N>), computed by
 * compiling each expression against include/cute; NULL means CuTe rejects
 * the call at compile time (a static_assert, or no overload). */
typedef struct golden {
  const char *fn, *a, *b, *c, *expected;
} golden;

static const golden goldens[] = {
  {"size", "0", NULL, NULL, "0"},
  {"size", "1", NULL, NULL, "1"},
  {"size", "3", NULL, NULL, "3"},
  {"size", "8", NULL, NULL, "8"},
  {"size", "-2", NULL, NULL, "-2"},
  {"size", "()", NULL, NULL, "1"},
  {"size", "(8)", NULL, NULL, "8"},
  {"size", "(2,3)", NULL, NULL, "6"},
  {"size", "(2,(2,2))", NULL, NULL, "8"},
  {"size", "((2,3),4)", NULL, NULL, "24"},
  {"size", "(1,4)", NULL, NULL, "4"},
  {"size", "(4,1)", NULL, NULL, "4"},
  {"size", "(2,1,3)", NULL, NULL, "6"},
  {"size", "((2,2),(3,1))", NULL, NULL, "12"},
  {"size", "(3,(2,(2,2)))", NULL, NULL, "24"},
  {"size", "((1))", NULL, NULL, "1"},
  {"size", "(((4)))", NULL, NULL, "4"},
  {"size", "(0,3)", NULL, NULL, "0"},
  {"size", "(2,-3)", NULL, NULL, "-6"},
  {"size", "((),2)", NULL, NULL, "2"},
  {"size", "(6,(4,10))", NULL, NULL, "240"},
  {"size", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "40320"},
  {"size", "((((((((1))))))))", NULL, NULL, "1"},
  {"size", "(1,(1,(1,(1,1))))", NULL, NULL, "1"},
  {"size", "(2,_)", NULL, NULL, "0"},
  {"size", "(_,(1,_))", NULL, NULL, "0"},
  {"rank", "0", NULL, NULL, "1"},
  {"rank", "1", NULL, NULL, "1"},
  {"rank", "3", NULL, NULL, "1"},
  {"rank", "8", NULL, NULL, "1"},
  {"rank", "-2", NULL, NULL, "1"},
  {"rank", "()", NULL, NULL, "0"},
  {"rank", "(8)", NULL, NULL, "1"},
  {"rank", "(2,3)", NULL, NULL, "2"},
  {"rank", "(2,(2,2))", NULL, NULL, "2"},
  {"rank", "((2,3),4)", NULL, NULL, "2"},
  {"rank", "(1,4)", NULL, NULL, "2"},
  {"rank", "(4,1)", NULL, NULL, "2"},
  {"rank", "(2,1,3)", NULL, NULL, "3"},
  {"rank", "((2,2),(3,1))", NULL, NULL, "2"},
  {"rank", "(3,(2,(2,2)))", NULL, NULL, "2"},
  {"rank", "((1))", NULL, NULL, "1"},
  {"rank", "(((4)))", NULL, NULL, "1"},
  {"rank", "(0,3)", NULL, NULL, "2"},
  {"rank", "(2,-3)", NULL, NULL, "2"},
  {"rank", "((),2)", NULL, NULL, "2"},
  {"rank", "(6,(4,10))", NULL, NULL, "2"},
  {"rank", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "2"},
  {"rank", "((((((((1))))))))", NULL, NULL, "1"},
  {"rank", "(1,(1,(1,(1,1))))", NULL, NULL, "2"},
  {"rank", "(2,_)", NULL, NULL, "2"},
  {"rank", "_", NULL, NULL, "1"},
  {"rank", "(_,(1,_))", NULL, NULL, "2"},
  {"depth", "0", NULL, NULL, "0"},
  {"depth", "1", NULL, NULL, "0"},
  {"depth", "3", NULL, NULL, "0"},
  {"depth", "8", NULL, NULL, "0"},
  {"depth", "-2", NULL, NULL, "0"},
  {"depth", "(8)", NULL, NULL, "1"},
  {"depth", "(2,3)", NULL, NULL, "1"},
  {"depth", "(2,(2,2))", NULL, NULL, "2"},
  {"depth", "((2,3),4)", NULL, NULL, "2"},
  {"depth", "(1,4)", NULL, NULL, "1"},
  {"depth", "(4,1)", NULL, NULL, "1"},
  {"depth", "(2,1,3)", NULL, NULL, "1"},
  {"depth", "((2,2),(3,1))", NULL, NULL, "2"},
  {"depth", "(3,(2,(2,2)))", NULL, NULL, "3"},
  {"depth", "((1))", NULL, NULL, "2"},
  {"depth", "(((4)))", NULL, NULL, "3"},
  {"depth", "(0,3)", NULL, NULL, "1"},
  {"depth", "(2,-3)", NULL, NULL, "1"},
  {"depth", "(6,(4,10))", NULL, NULL, "2"},
  {"depth", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "6"},
  {"depth", "((((((((1))))))))", NULL, NULL, "8"},
  {"depth", "(1,(1,(1,(1,1))))", NULL, NULL, "4"},
  {"depth", "(2,_)", NULL, NULL, "1"},
  {"depth", "_", NULL, NULL, "0"},
  {"depth", "(_,(1,_))", NULL, NULL, "2"},
  {"depth", "()", NULL, NULL, NULL},
  {"depth", "((),2)", NULL, NULL, NULL},
  {"product", "0", NULL, NULL, "0"},
  {"product", "1", NULL, NULL, "1"},
  {"product", "3", NULL, NULL, "3"},
  {"product", "8", NULL, NULL, "8"},
  {"product", "-2", NULL, NULL, "-2"},
  {"product", "()", NULL, NULL, "1"},
  {"product", "(8)", NULL, NULL, "8"},
  {"product", "(2,3)", NULL, NULL, "6"},
  {"product", "(2,(2,2))", NULL, NULL, "8"},
  {"product", "((2,3),4)", NULL, NULL, "24"},
  {"product", "(1,4)", NULL, NULL, "4"},
  {"product", "(4,1)", NULL, NULL, "4"},
  {"product", "(2,1,3)", NULL, NULL, "6"},
  {"product", "((2,2),(3,1))", NULL, NULL, "12"},
  {"product", "(3,(2,(2,2)))", NULL, NULL, "24"},
  {"product", "((1))", NULL, NULL, "1"},
  {"product", "(((4)))", NULL, NULL, "4"},
  {"product", "(0,3)", NULL, NULL, "0"},
  {"product", "(2,-3)", NULL, NULL, "-6"},
  {"product", "((),2)", NULL, NULL, "2"},
  {"product", "(6,(4,10))", NULL, NULL, "240"},
  {"product", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "40320"},
  {"product", "((((((((1))))))))", NULL, NULL, "1"},
  {"product", "(1,(1,(1,(1,1))))", NULL, NULL, "1"},
  {"sum", "0", NULL, NULL, "0"},
  {"sum", "1", NULL, NULL, "1"},
  {"sum", "3", NULL, NULL, "3"},
  {"sum", "8", NULL, NULL, "8"},
  {"sum", "-2", NULL, NULL, "-2"},
  {"sum", "()", NULL, NULL, "0"},
  {"sum", "(8)", NULL, NULL, "8"},
  {"sum", "(2,3)", NULL, NULL, "5"},
  {"sum", "(2,(2,2))", NULL, NULL, "6"},
  {"sum", "((2,3),4)", NULL, NULL, "9"},
  {"sum", "(1,4)", NULL, NULL, "5"},
  {"sum", "(4,1)", NULL, NULL, "5"},
  {"sum", "(2,1,3)", NULL, NULL, "6"},
  {"sum", "((2,2),(3,1))", NULL, NULL, "8"},
  {"sum", "(3,(2,(2,2)))", NULL, NULL, "9"},
  {"sum", "((1))", NULL, NULL, "1"},
  {"sum", "(((4)))", NULL, NULL, "4"},
  {"sum", "(0,3)", NULL, NULL, "3"},
  {"sum", "(2,-3)", NULL, NULL, "-1"},
  {"sum", "((),2)", NULL, NULL, "2"},
  {"sum", "(6,(4,10))", NULL, NULL, "20"},
  {"sum", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "35"},
  {"sum", "((((((((1))))))))", NULL, NULL, "1"},
  {"sum", "(1,(1,(1,(1,1))))", NULL, NULL, "5"},
  {"flatten", "0", NULL, NULL, "0"},
  {"flatten", "1", NULL, NULL, "1"},
  {"flatten", "3", NULL, NULL, "3"},
  {"flatten", "8", NULL, NULL, "8"},
  {"flatten", "-2", NULL, NULL, "-2"},
  {"flatten", "()", NULL, NULL, "()"},
  {"flatten", "(8)", NULL, NULL, "(8)"},
  {"flatten", "(2,3)", NULL, NULL, "(2,3)"},
  {"flatten", "(2,(2,2))", NULL, NULL, "(2,2,2)"},
  {"flatten", "((2,3),4)", NULL, NULL, "(2,3,4)"},
  {"flatten", "(1,4)", NULL, NULL, "(1,4)"},
  {"flatten", "(4,1)", NULL, NULL, "(4,1)"},
  {"flatten", "(2,1,3)", NULL, NULL, "(2,1,3)"},
  {"flatten", "((2,2),(3,1))", NULL, NULL, "(2,2,3,1)"},
  {"flatten", "(3,(2,(2,2)))", NULL, NULL, "(3,2,2,2)"},
  {"flatten", "((1))", NULL, NULL, "(1)"},
  {"flatten", "(((4)))", NULL, NULL, "(4)"},
  {"flatten", "(0,3)", NULL, NULL, "(0,3)"},
  {"flatten", "(2,-3)", NULL, NULL, "(2,-3)"},
  {"flatten", "((),2)", NULL, NULL, "(2)"},
  {"flatten", "(6,(4,10))", NULL, NULL, "(6,4,10)"},
  {"flatten", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "(2,3,4,5,6,7,8)"},
  {"flatten", "((((((((1))))))))", NULL, NULL, "(1)"},
  {"flatten", "(1,(1,(1,(1,1))))", NULL, NULL, "(1,1,1,1,1)"},
  {"flatten", "(2,_)", NULL, NULL, "(2,_)"},
  {"flatten", "_", NULL, NULL, "_"},
  {"flatten", "(_,(1,_))", NULL, NULL, "(_,1,_)"},
  {"compact_col_major", "0", NULL, NULL, "1"},
  {"compact_col_major", "1", NULL, NULL, "0"},
  {"compact_col_major", "3", NULL, NULL, "1"},
  {"compact_col_major", "8", NULL, NULL, "1"},
  {"compact_col_major", "-2", NULL, NULL, NULL}, /* CuTe: 1 */
  {"compact_col_major", "()", NULL, NULL, "()"},
  {"compact_col_major", "(8)", NULL, NULL, "(1)"},
  {"compact_col_major", "(2,3)", NULL, NULL, "(1,2)"},
  {"compact_col_major", "(2,(2,2))", NULL, NULL, "(1,(2,4))"},
  {"compact_col_major", "((2,3),4)", NULL, NULL, "((1,2),6)"},
  {"compact_col_major", "(1,4)", NULL, NULL, "(0,1)"},
  {"compact_col_major", "(4,1)", NULL, NULL, "(1,0)"},
  {"compact_col_major", "(2,1,3)", NULL, NULL, "(1,0,2)"},
  {"compact_col_major", "((2,2),(3,1))", NULL, NULL, "((1,2),(4,0))"},
  {"compact_col_major", "(3,(2,(2,2)))", NULL, NULL, "(1,(3,(6,12)))"},
  {"compact_col_major", "((1))", NULL, NULL, "((0))"},
  {"compact_col_major", "(((4)))", NULL, NULL, "(((1)))"},
  {"compact_col_major", "(0,3)", NULL, NULL, "(1,0)"},
  {"compact_col_major", "(2,-3)", NULL, NULL, NULL}, /* CuTe: (1,2) */
  {"compact_col_major", "((),2)", NULL, NULL, "((),1)"},
  {"compact_col_major", "(6,(4,10))", NULL, NULL, "(1,(6,24))"},
  {"compact_col_major", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "(1,(2,(6,(24,(120,(720,5040))))))"},
  {"compact_col_major", "((((((((1))))))))", NULL, NULL, "((((((((0))))))))"},
  {"compact_col_major", "(1,(1,(1,(1,1))))", NULL, NULL, "(0,(0,(0,(0,0))))"},
  {"compact_row_major", "0", NULL, NULL, "1"},
  {"compact_row_major", "1", NULL, NULL, "0"},
  {"compact_row_major", "3", NULL, NULL, "1"},
  {"compact_row_major", "8", NULL, NULL, "1"},
  {"compact_row_major", "-2", NULL, NULL, NULL},
  {"compact_row_major", "()", NULL, NULL, "()"},
  {"compact_row_major", "(8)", NULL, NULL, "(1)"},
  {"compact_row_major", "(2,3)", NULL, NULL, "(3,1)"},
  {"compact_row_major", "(2,(2,2))", NULL, NULL, "(4,(2,1))"},
  {"compact_row_major", "((2,3),4)", NULL, NULL, "((12,4),1)"},
  {"compact_row_major", "(1,4)", NULL, NULL, "(0,1)"},
  {"compact_row_major", "(4,1)", NULL, NULL, "(1,0)"},
  {"compact_row_major", "(2,1,3)", NULL, NULL, "(3,0,1)"},
  {"compact_row_major", "((2,2),(3,1))", NULL, NULL, "((6,3),(1,0))"},
  {"compact_row_major", "(3,(2,(2,2)))", NULL, NULL, "(8,(4,(2,1)))"},
  {"compact_row_major", "((1))", NULL, NULL, "((0))"},
  {"compact_row_major", "(((4)))", NULL, NULL, "(((1)))"},
  {"compact_row_major", "(0,3)", NULL, NULL, "(3,1)"},
  {"compact_row_major", "(2,-3)", NULL, NULL, NULL},
  {"compact_row_major", "((),2)", NULL, NULL, "((),1)"},
  {"compact_row_major", "(6,(4,10))", NULL, NULL, "(40,(10,1))"},
  {"compact_row_major", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "(20160,(6720,(1680,(336,(56,(8,1))))))"},
  {"compact_row_major", "((((((((1))))))))", NULL, NULL, "((((((((0))))))))"},
  {"compact_row_major", "(1,(1,(1,(1,1))))", NULL, NULL, "(0,(0,(0,(0,0))))"},
  {"inner_product", "8", "8", NULL, "64"},
  {"inner_product", "8", "24", NULL, "192"},
  {"inner_product", "3", "3", NULL, "9"},
  {"inner_product", "3", "40", NULL, "120"},
  {"inner_product", "4", "4", NULL, "16"},
  {"inner_product", "(4)", "(4)", NULL, "16"},
  {"inner_product", "(2,3)", "(2,2)", NULL, "10"},
  {"inner_product", "(4,6)", "(2,3)", NULL, "26"},
  {"inner_product", "(4,6)", "(1,1)", NULL, "10"},
  {"inner_product", "(2,(2,2))", "(8,(1,2))", NULL, "22"},
  {"inner_product", "((2,3),4)", "((2,3),4)", NULL, "29"},
  {"inner_product", "(2,2)", "(2,3)", NULL, "10"},
  {"inner_product", "(2,2)", "(1,1)", NULL, "4"},
  {"inner_product", "((2,2),4)", "((2,2),4)", NULL, "24"},
  {"inner_product", "(8,(1,2))", "(12,(2,4))", NULL, "106"},
  {"inner_product", "(12,(2,4))", "(8,(1,2))", NULL, "106"},
  {"inner_product", "()", "()", NULL, "0"},
  {"inner_product", "(1,1)", "(2,2)", NULL, "4"},
  {"inner_product", "(3,(3,4))", "(2,(2,2))", NULL, "20"},
  {"inner_product", "(3,(3,4))", "(3,(3,4))", NULL, "34"},
  {"inner_product", "24", "4", NULL, "96"},
  {"inner_product", "40", "8", NULL, "320"},
  {"inner_product", "40", "24", NULL, "960"},
  {"inner_product", "(3,2)", "(4,6)", NULL, "24"},
  {"inner_product", "(3,2)", "(3,2)", NULL, "13"},
  {"inner_product", "0", "1", NULL, "0"},
  {"inner_product", "0", "3", NULL, "0"},
  {"inner_product", "1", "1", NULL, "1"},
  {"inner_product", "1", "3", NULL, "3"},
  {"inner_product", "4", "1", NULL, "4"},
  {"inner_product", "8", "(4)", NULL, NULL},
  {"inner_product", "4", "((2,2),4)", NULL, NULL},
  {"inner_product", "(2,3)", "()", NULL, NULL},
  {"inner_product", "((2,3),4)", "3", NULL, NULL},
  {"inner_product", "(2,2)", "3", NULL, NULL},
  {"inner_product", "(8,(1,2))", "(4,6)", NULL, NULL},
  {"inner_product", "()", "((2,2),4)", NULL, NULL},
  {"inner_product", "(3,(3,4))", "40", NULL, NULL},
  {"inner_product", "(3,2)", "(2,(2,2))", NULL, NULL},
  {"inner_product", "1", "(2,(3,2))", NULL, NULL},
  {"inner_product", "(2,(3,4))", "1", NULL, NULL},
  {"shape_div", "8", "8", NULL, "1"},
  {"shape_div", "8", "((2,2),4)", NULL, "1"},
  {"shape_div", "3", "3", NULL, "1"},
  {"shape_div", "3", "(3,(3,4))", NULL, "1"},
  {"shape_div", "4", "(2,(2,2))", NULL, "1"},
  {"shape_div", "4", "(1,1)", NULL, "4"},
  {"shape_div", "(4)", "24", NULL, "(1)"},
  {"shape_div", "(4,6)", "4", NULL, "(1,6)"},
  {"shape_div", "(2,(2,2))", "8", NULL, "(1,(1,1))"},
  {"shape_div", "(2,(2,2))", "(1,1)", NULL, "(2,(2,2))"},
  {"shape_div", "((2,3),4)", "24", NULL, "((1,1),1)"},
  {"shape_div", "(2,2)", "((2,3),4)", NULL, "(1,1)"},
  {"shape_div", "(2,2)", "((4,2),(2,3))", NULL, "(1,1)"},
  {"shape_div", "((2,2),4)", "(1,1)", NULL, "((2,2),4)"},
  {"shape_div", "(8,(1,2))", "(1,1)", NULL, "(8,(1,2))"},
  {"shape_div", "(12,(2,4))", "(1,1)", NULL, "(12,(2,4))"},
  {"shape_div", "()", "40", NULL, "()"},
  {"shape_div", "(1,1)", "(2,2)", NULL, "(1,1)"},
  {"shape_div", "(1,1)", "(3,2)", NULL, "(1,1)"},
  {"shape_div", "24", "(4)", NULL, "6"},
  {"shape_div", "24", "()", NULL, "24"},
  {"shape_div", "40", "(2,(2,2))", NULL, "5"},
  {"shape_div", "(3,2)", "(12,(2,4))", NULL, "(1,1)"},
  {"shape_div", "((4,2),(2,3))", "(2,2)", NULL, "((2,2),(1,3))"},
  {"shape_div", "0", "(2,3)", NULL, "0"},
  {"shape_div", "1", "3", NULL, "1"},
  {"shape_div", "4", "2", NULL, "2"},
  {"shape_div", "-4", "2", NULL, "-1"},
  {"shape_div", "6", "2", NULL, "3"},
  {"shape_div", "(4,6)", "2", NULL, "(2,6)"},
  {"shape_div", "8", "3", NULL, NULL},
  {"shape_div", "(4)", "(12,(2,4))", NULL, NULL},
  {"shape_div", "(4,6)", "((2,3),4)", NULL, NULL},
  {"shape_div", "((2,3),4)", "40", NULL, NULL},
  {"shape_div", "((2,2),4)", "3", NULL, NULL},
  {"shape_div", "(12,(2,4))", "8", NULL, NULL},
  {"shape_div", "(1,1)", "(4)", NULL, NULL},
  {"shape_div", "40", "(4,6)", NULL, NULL},
  {"shape_div", "((4,2),(2,3))", "40", NULL, NULL},
  {"shape_div", "4", "3", NULL, NULL},
  {"shape_div", "(2,(3,4))", "-2", NULL, NULL},
  {"ceil_div", "(2,2)", "((2,2),4)", NULL, "(1,1)"},
  {"ceil_div", "((2,2),4)", "(4,6)", NULL, "((1,1),1)"},
  {"ceil_div", "(8,(1,2))", "3", NULL, "(3,(1,2))"},
  {"ceil_div", "(8,(1,2))", "40", NULL, "(1,(1,1))"},
  {"ceil_div", "(12,(2,4))", "()", NULL, "(12,(2,4))"},
  {"ceil_div", "(1,1)", "4", NULL, "(1,1)"},
  {"ceil_div", "(1,1)", "(3,2)", NULL, "(1,1)"},
  {"ceil_div", "(3,(3,4))", "(1,1)", NULL, "(3,(3,4))"},
  {"ceil_div", "24", "(2,2)", NULL, "6"},
  {"ceil_div", "40", "(2,3)", NULL, "7"},
  {"ceil_div", "40", "((4,2),(2,3))", NULL, "1"},
  {"ceil_div", "(3,2)", "(3,(3,4))", NULL, "(1,1)"},
  {"ceil_div", "((4,2),(2,3))", "(8,(1,2))", NULL, "((1,1),(2,2))"},
  {"ceil_div", "8", "(2,(2,2))", NULL, "1"},
  {"ceil_div", "3", "3", NULL, "1"},
  {"ceil_div", "3", "24", NULL, "1"},
  {"ceil_div", "4", "(8,(1,2))", NULL, "1"},
  {"ceil_div", "(4)", "40", NULL, "(1)"},
  {"ceil_div", "(2,3)", "(3,(3,4))", NULL, "(1,1)"},
  {"ceil_div", "(4,6)", "(8,(1,2))", NULL, "(1,3)"},
  {"ceil_div", "(2,(2,2))", "(2,(2,2))", NULL, "(1,(1,1))"},
  {"ceil_div", "((2,3),4)", "4", NULL, "((1,2),4)"},
  {"ceil_div", "((2,3),4)", "(3,2)", NULL, "((1,2),2)"},
  {"ceil_div", "(4,5,6)", "()", NULL, "(4,5,6)"},
  {"ceil_div", "(2,2)", "(2,2)", NULL, "(1,1)"},
  {"ceil_div", "1", "4", NULL, "1"},
  {"ceil_div", "4", "()", NULL, "4"},
  {"ceil_div", "6", "4", NULL, "2"},
  {"ceil_div", "(0,4)", "(2,3)", NULL, "(0,2)"},
  {"ceil_div", "(-4,2)", "-2", NULL, "(3,2)"},
  {"ceil_div", "(4)", "(2,3)", NULL, NULL},
  {"ceil_div", "(4)", "((2,2),4)", NULL, NULL},
  {"ceil_div", "(4)", "((4,2),(2,3))", NULL, NULL},
  {"ceil_div", "((2,2),4)", "(4,5,6)", NULL, NULL},
  {"ceil_div", "()", "(2,(2,2))", NULL, NULL},
  {"ceil_div", "()", "(12,(2,4))", NULL, NULL},
  {"ceil_div", "(3,(3,4))", "(4,5,6)", NULL, NULL},
  {"ceil_div", "-4", "0", NULL, NULL},
  {"ceil_div", "(0,4)", "2", NULL, NULL},
  {"ceil_div", "(-4,2)", "0", NULL, NULL},
  {"ceil_div", "(6,(2,0))", "0", NULL, NULL},
  {"elem_scale", "8", "8", NULL, "64"},
  {"elem_scale", "8", "(4,5,6)", NULL, "960"},
  {"elem_scale", "8", "24", NULL, "192"},
  {"elem_scale", "3", "(2,3)", NULL, "18"},
  {"elem_scale", "3", "(12,(2,4))", NULL, "288"},
  {"elem_scale", "4", "8", NULL, "32"},
  {"elem_scale", "4", "(4,5,6)", NULL, "480"},
  {"elem_scale", "4", "24", NULL, "96"},
  {"elem_scale", "(2,3)", "((2,3),4)", NULL, "(12,12)"},
  {"elem_scale", "(2,3)", "((4,2),(2,3))", NULL, "(16,18)"},
  {"elem_scale", "(4,6)", "(12,(2,4))", NULL, "(48,48)"},
  {"elem_scale", "(2,(2,2))", "(3,(3,4))", NULL, "(6,(6,8))"},
  {"elem_scale", "(2,2)", "(2,(2,2))", NULL, "(4,8)"},
  {"elem_scale", "(2,2)", "(3,2)", NULL, "(6,4)"},
  {"elem_scale", "(8,(1,2))", "(3,(3,4))", NULL, "(24,(3,8))"},
  {"elem_scale", "(1,1)", "(2,3)", NULL, "(2,3)"},
  {"elem_scale", "(1,1)", "(1,1)", NULL, "(1,1)"},
  {"elem_scale", "(3,(3,4))", "((4,2),(2,3))", NULL, "(24,(6,12))"},
  {"elem_scale", "24", "((2,3),4)", NULL, "576"},
  {"elem_scale", "24", "(3,(3,4))", NULL, "864"},
  {"elem_scale", "40", "(4)", NULL, "160"},
  {"elem_scale", "40", "(8,(1,2))", NULL, "640"},
  {"elem_scale", "40", "((4,2),(2,3))", NULL, "1920"},
  {"elem_scale", "(3,2)", "(12,(2,4))", NULL, "(36,16)"},
  {"elem_scale", "0", "2", NULL, "0"},
  {"elem_scale", "0", "()", NULL, "0"},
  {"elem_scale", "1", "(1,2)", NULL, "2"},
  {"elem_scale", "4", "3", NULL, "12"},
  {"elem_scale", "-4", "1", NULL, "-4"},
  {"elem_scale", "-4", "(4)", NULL, "-16"},
  {"elem_scale", "(4)", "8", NULL, NULL},
  {"elem_scale", "(2,3)", "(4,5,6)", NULL, NULL},
  {"elem_scale", "(2,(2,2))", "(1,1)", NULL, NULL},
  {"elem_scale", "(4,5,6)", "4", NULL, NULL},
  {"elem_scale", "(2,2)", "24", NULL, NULL},
  {"elem_scale", "(8,(1,2))", "(2,3)", NULL, NULL},
  {"elem_scale", "(12,(2,4))", "24", NULL, NULL},
  {"elem_scale", "(1,1)", "3", NULL, NULL},
  {"elem_scale", "(3,2)", "3", NULL, NULL},
  {"elem_scale", "((4,2),(2,3))", "24", NULL, NULL},
  {"elem_scale", "(2,(3,4))", "3", NULL, NULL},
  {"congruent", "8", "8", NULL, "true"},
  {"congruent", "8", "()", NULL, "false"},
  {"congruent", "3", "(2,(2,2))", NULL, "false"},
  {"congruent", "3", "((4,2),(2,3))", NULL, "false"},
  {"congruent", "4", "(12,(2,4))", NULL, "false"},
  {"congruent", "(4)", "(4,6)", NULL, "false"},
  {"congruent", "(4)", "(3,2)", NULL, "false"},
  {"congruent", "(2,3)", "(8,(1,2))", NULL, "false"},
  {"congruent", "(4,6)", "(2,3)", NULL, "true"},
  {"congruent", "(4,6)", "40", NULL, "false"},
  {"congruent", "(2,(2,2))", "((2,2),4)", NULL, "false"},
  {"congruent", "((2,3),4)", "(4)", NULL, "false"},
  {"congruent", "((2,3),4)", "24", NULL, "false"},
  {"congruent", "(4,5,6)", "(2,2)", NULL, "false"},
  {"congruent", "(2,2)", "4", NULL, "false"},
  {"congruent", "(2,2)", "(3,(3,4))", NULL, "false"},
  {"congruent", "((2,2),4)", "(4,5,6)", NULL, "false"},
  {"congruent", "(8,(1,2))", "3", NULL, "false"},
  {"congruent", "(8,(1,2))", "(1,1)", NULL, "false"},
  {"congruent", "(12,(2,4))", "((2,3),4)", NULL, "false"},
  {"congruent", "()", "8", NULL, "false"},
  {"congruent", "()", "()", NULL, "true"},
  {"congruent", "(1,1)", "(2,(2,2))", NULL, "false"},
  {"congruent", "(1,1)", "((4,2),(2,3))", NULL, "false"},
  {"congruent", "(3,(3,4))", "(12,(2,4))", NULL, "true"},
  {"congruent", "24", "(4,6)", NULL, "false"},
  {"congruent", "24", "(3,2)", NULL, "false"},
  {"congruent", "40", "(8,(1,2))", NULL, "false"},
  {"congruent", "(3,2)", "(2,3)", NULL, "true"},
  {"congruent", "(3,2)", "40", NULL, "false"},
  {"weakly_congruent", "8", "8", NULL, "true"},
  {"weakly_congruent", "8", "()", NULL, "true"},
  {"weakly_congruent", "3", "(2,(2,2))", NULL, "true"},
  {"weakly_congruent", "3", "((4,2),(2,3))", NULL, "true"},
  {"weakly_congruent", "4", "(12,(2,4))", NULL, "true"},
  {"weakly_congruent", "(4)", "(4,6)", NULL, "false"},
  {"weakly_congruent", "(4)", "(3,2)", NULL, "false"},
  {"weakly_congruent", "(2,3)", "(8,(1,2))", NULL, "true"},
  {"weakly_congruent", "(4,6)", "(2,3)", NULL, "true"},
  {"weakly_congruent", "(4,6)", "40", NULL, "false"},
  {"weakly_congruent", "(2,(2,2))", "((2,2),4)", NULL, "false"},
  {"weakly_congruent", "((2,3),4)", "(4)", NULL, "false"},
  {"weakly_congruent", "((2,3),4)", "24", NULL, "false"},
  {"weakly_congruent", "(4,5,6)", "(2,2)", NULL, "false"},
  {"weakly_congruent", "(2,2)", "4", NULL, "false"},
  {"weakly_congruent", "(2,2)", "(3,(3,4))", NULL, "true"},
  {"weakly_congruent", "((2,2),4)", "(4,5,6)", NULL, "false"},
  {"weakly_congruent", "(8,(1,2))", "3", NULL, "false"},
  {"weakly_congruent", "(8,(1,2))", "(1,1)", NULL, "false"},
  {"weakly_congruent", "(12,(2,4))", "((2,3),4)", NULL, "false"},
  {"weakly_congruent", "()", "8", NULL, "false"},
  {"weakly_congruent", "()", "()", NULL, "true"},
  {"weakly_congruent", "(1,1)", "(2,(2,2))", NULL, "true"},
  {"weakly_congruent", "(1,1)", "((4,2),(2,3))", NULL, "true"},
  {"weakly_congruent", "(3,(3,4))", "(12,(2,4))", NULL, "true"},
  {"weakly_congruent", "24", "(4,6)", NULL, "true"},
  {"weakly_congruent", "24", "(3,2)", NULL, "true"},
  {"weakly_congruent", "40", "(8,(1,2))", NULL, "true"},
  {"weakly_congruent", "(3,2)", "(2,3)", NULL, "true"},
  {"weakly_congruent", "(3,2)", "40", NULL, "false"},
  {"compatible", "8", "8", NULL, "true"},
  {"compatible", "8", "()", NULL, "false"},
  {"compatible", "3", "(2,(2,2))", NULL, "false"},
  {"compatible", "3", "((4,2),(2,3))", NULL, "false"},
  {"compatible", "4", "(12,(2,4))", NULL, "false"},
  {"compatible", "(4)", "(4,6)", NULL, "false"},
  {"compatible", "(4)", "(3,2)", NULL, "false"},
  {"compatible", "(2,3)", "(8,(1,2))", NULL, "false"},
  {"compatible", "(4,6)", "(2,3)", NULL, "false"},
  {"compatible", "(4,6)", "40", NULL, "false"},
  {"compatible", "(2,(2,2))", "((2,2),4)", NULL, "false"},
  {"compatible", "((2,3),4)", "(4)", NULL, "false"},
  {"compatible", "((2,3),4)", "24", NULL, "false"},
  {"compatible", "(4,5,6)", "(2,2)", NULL, "false"},
  {"compatible", "(2,2)", "4", NULL, "false"},
  {"compatible", "(2,2)", "(3,(3,4))", NULL, "false"},
  {"compatible", "((2,2),4)", "(4,5,6)", NULL, "false"},
  {"compatible", "(8,(1,2))", "3", NULL, "false"},
  {"compatible", "(8,(1,2))", "(1,1)", NULL, "false"},
  {"compatible", "(12,(2,4))", "((2,3),4)", NULL, "false"},
  {"compatible", "()", "8", NULL, "false"},
  {"compatible", "()", "()", NULL, "true"},
  {"compatible", "(1,1)", "(2,(2,2))", NULL, "false"},
  {"compatible", "(1,1)", "((4,2),(2,3))", NULL, "false"},
  {"compatible", "(3,(3,4))", "(12,(2,4))", NULL, "false"},
  {"compatible", "24", "(4,6)", NULL, "true"},
  {"compatible", "24", "(3,2)", NULL, "false"},
  {"compatible", "40", "(8,(1,2))", NULL, "false"},
  {"compatible", "(3,2)", "(2,3)", NULL, "false"},
  {"compatible", "(3,2)", "40", NULL, "false"},
  {"unflatten", "8", "8", NULL, "8"},
  {"unflatten", "8", "(4)", NULL, "(8)"},
  {"unflatten", "3", "8", NULL, "3"},
  {"unflatten", "3", "(4)", NULL, "(3)"},
  {"unflatten", "4", "8", NULL, "4"},
  {"unflatten", "4", "(4)", NULL, "(4)"},
  {"unflatten", "(4)", "8", NULL, "4"},
  {"unflatten", "(4)", "(4)", NULL, "(4)"},
  {"unflatten", "(2,3)", "(2,3)", NULL, "(2,3)"},
  {"unflatten", "(2,3)", "(1,1)", NULL, "(2,3)"},
  {"unflatten", "(4,6)", "(4,6)", NULL, "(4,6)"},
  {"unflatten", "(4,6)", "(3,2)", NULL, "(4,6)"},
  {"unflatten", "(2,(2,2))", "(2,2)", NULL, "(2,(2,2))"},
  {"unflatten", "((2,3),4)", "(2,3)", NULL, "((2,3),4)"},
  {"unflatten", "((2,3),4)", "(1,1)", NULL, "((2,3),4)"},
  {"unflatten", "(4,5,6)", "((2,3),4)", NULL, "((4,5),6)"},
  {"unflatten", "(4,5,6)", "(8,(1,2))", NULL, "(4,(5,6))"},
  {"unflatten", "(2,2)", "(2,3)", NULL, "(2,2)"},
  {"unflatten", "(2,2)", "(1,1)", NULL, "(2,2)"},
  {"unflatten", "((2,2),4)", "(4,6)", NULL, "((2,2),4)"},
  {"unflatten", "((2,2),4)", "(3,2)", NULL, "((2,2),4)"},
  {"unflatten", "(8,(1,2))", "(2,2)", NULL, "(8,(1,2))"},
  {"unflatten", "(12,(2,4))", "(2,3)", NULL, "(12,(2,4))"},
  {"unflatten", "(12,(2,4))", "(1,1)", NULL, "(12,(2,4))"},
  {"unflatten", "(1,1)", "(2,3)", NULL, "(1,1)"},
  {"unflatten", "(1,1)", "(1,1)", NULL, "(1,1)"},
  {"unflatten", "(3,(3,4))", "(4,6)", NULL, "(3,(3,4))"},
  {"unflatten", "(3,(3,4))", "(3,2)", NULL, "(3,(3,4))"},
  {"unflatten", "24", "4", NULL, "24"},
  {"unflatten", "24", "40", NULL, "24"},
  {"unflatten", "8", "(2,3)", NULL, NULL},
  {"unflatten", "3", "(3,2)", NULL, NULL},
  {"unflatten", "(4)", "(1,1)", NULL, NULL},
  {"unflatten", "(4,6)", "((2,2),4)", NULL, NULL},
  {"unflatten", "((2,3),4)", "(4)", NULL, NULL},
  {"unflatten", "(2,2)", "3", NULL, NULL},
  {"unflatten", "((2,2),4)", "24", NULL, NULL},
  {"unflatten", "(12,(2,4))", "(8,(1,2))", NULL, NULL},
  {"unflatten", "(1,1)", "8", NULL, NULL},
  {"unflatten", "(3,(3,4))", "(3,(3,4))", NULL, NULL},
  {"unflatten", "40", "(12,(2,4))", NULL, NULL},
  {"get", "(8)", "0", NULL, "8"},
  {"get", "(2,3)", "0", NULL, "2"},
  {"get", "(2,3)", "1,0", NULL, "3"},
  {"get", "(2,(2,2))", "1", NULL, "(2,2)"},
  {"get", "(2,(2,2))", "1,1", NULL, "2"},
  {"get", "((2,3),4)", "0", NULL, "(2,3)"},
  {"get", "((2,3),4)", "1,0", NULL, "4"},
  {"get", "(1,4)", "1", NULL, "4"},
  {"get", "(1,4)", "0,0,0", NULL, "1"},
  {"get", "(4,1)", "0,0", NULL, "4"},
  {"get", "(2,1,3)", "0", NULL, "2"},
  {"get", "(2,1,3)", "0,0", NULL, "2"},
  {"get", "((2,2),(3,1))", "0", NULL, "(2,2)"},
  {"get", "((2,2),(3,1))", "1,0", NULL, "3"},
  {"get", "((2,2),(3,1))", "0,0,0", NULL, "2"},
  {"get", "(3,(2,(2,2)))", "0,0", NULL, "3"},
  {"get", "(3,(2,(2,2)))", "1,1,0", NULL, "2"},
  {"get", "((1))", "0,0", NULL, "1"},
  {"get", "(((4)))", "0,0", NULL, "(4)"},
  {"get", "(0,3)", "1", NULL, "3"},
  {"get", "(0,3)", "0,0,0", NULL, "0"},
  {"get", "(2,-3)", "0,0", NULL, "2"},
  {"get", "((),2)", "0", NULL, "()"},
  {"get", "(6,(4,10))", "0", NULL, "6"},
  {"get", "(6,(4,10))", "1,0", NULL, "4"},
  {"get", "(6,(4,10))", "0,0,0", NULL, "6"},
  {"get", "((2,_),(3,4))", "0,0", NULL, "2"},
  {"get", "((2,_),(3,4))", "1,1,0", NULL, "4"},
  {"get", "(_,(1,2))", "1", NULL, "(1,2)"},
  {"get", "(_,(1,2))", "1,1", NULL, "2"},
  {"get", "()", "0", NULL, NULL},
  {"get", "()", "0,0,0", NULL, NULL},
  {"get", "(8)", "3", NULL, NULL},
  {"get", "((2,3),4)", "2", NULL, NULL},
  {"get", "(1,4)", "3", NULL, NULL},
  {"get", "(2,1,3)", "3", NULL, NULL},
  {"get", "((1))", "1,0", NULL, NULL},
  {"get", "(((4)))", "1,1", NULL, NULL},
  {"get", "(2,-3)", "2", NULL, NULL},
  {"get", "((),2)", "1,1,0", NULL, NULL},
  {"get", "(_,(1,2))", "2", NULL, NULL},
  {"crd2idx", "0", "1", NULL, "0"},
  {"crd2idx", "23", "3", NULL, "23"},
  {"crd2idx", "0", "()", NULL, "0"},
  {"crd2idx", "23", "(8)", NULL, "23"},
  {"crd2idx", "-7", "(2,3)", NULL, "-7"},
  {"crd2idx", "(1,2)", "(2,(2,2))", NULL, "5"},
  {"crd2idx", "-7", "((2,3),4)", NULL, "-7"},
  {"crd2idx", "-7", "(1,4)", NULL, "-7"},
  {"crd2idx", "(1,2)", "(4,1)", NULL, "9"},
  {"crd2idx", "0", "((2,2),(3,1))", NULL, "0"},
  {"crd2idx", "(1,2)", "(4,(2,3))", "(-6,(-1,8))", "2"},
  {"crd2idx", "23", "(3,(2,(2,2)))", NULL, "23"},
  {"crd2idx", "5", "((1))", NULL, "5"},
  {"crd2idx", "100", "(((4)))", NULL, "100"},
  {"crd2idx", "(1,2)", "(0,3)", NULL, "1"},
  {"crd2idx", "(0,0)", "(2,-3)", NULL, NULL},
  {"crd2idx", "(1,1)", "((),2)", NULL, "2"},
  {"crd2idx", "(1,1)", "(6,(4,10))", NULL, "7"},
  {"crd2idx", "100", "8", "2", "200"},
  {"crd2idx", "100", "4", "0", "0"},
  {"crd2idx", "23", "(2,3)", "(1,2)", "23"},
  {"crd2idx", "1", "(2,(2,2))", "(4,(2,1))", "4"},
  {"crd2idx", "-1", "((2,2),(2,2))", "((1,4),(2,8))", "-1"},
  {"crd2idx", "1", "(3,4)", "(0,1)", "0"},
  {"crd2idx", "(1,1,2)", "(2,1,3)", "(1,0,2)", "5"},
  {"crd2idx", "100", "((2,3),4)", "((1,2),6)", "100"},
  {"crd2idx", "1", "(1,1)", "(0,0)", "0"},
  {"crd2idx", "(3)", "((4))", "((2))", "6"},
  {"crd2idx", "100", "(2,2,2,2)", "(0,2,4,1)", "16"},
  {"crd2idx", "23", "(3,2)", "(2,2)", "18"},
  {"crd2idx", "(1,2)", "1", NULL, NULL},
  {"crd2idx", "(3)", "8", NULL, NULL},
  {"crd2idx", "(1,1,2)", "(2,3)", NULL, NULL},
  {"crd2idx", "(1,1,2)", "(4,1)", NULL, NULL},
  {"crd2idx", "((1,1),(2,0))", "((1))", NULL, NULL},
  {"crd2idx", "(3)", "(2,-3)", NULL, NULL},
  {"crd2idx", "(3)", "8", "2", NULL},
  {"crd2idx", "(3)", "(2,(2,2))", "(4,(2,1))", NULL},
  {"crd2idx", "(3)", "(2,(3,(2,2)))", "(1,(2,(6,12)))", NULL},
  {"crd2idx", "(1,(1,0))", "(2,2,2,2)", "(0,2,4,1)", NULL},
  {"crd2idx", "((),(1))", "()", NULL, NULL},
  {"idx2crd", "0", "1", NULL, "0"},
  {"idx2crd", "23", "3", NULL, "23"},
  {"idx2crd", "0", "(8)", NULL, "(0)"},
  {"idx2crd", "7", "(2,3)", NULL, "(1,3)"},
  {"idx2crd", "23", "(2,(2,2))", NULL, "(1,(1,5))"},
  {"idx2crd", "7", "((2,3),4)", NULL, "((1,0),1)"},
  {"idx2crd", "7", "(1,4)", NULL, "(0,7)"},
  {"idx2crd", "23", "(4,1)", NULL, "(3,5)"},
  {"idx2crd", "100", "(2,1,3)", NULL, "(0,0,50)"},
  {"idx2crd", "5", "(4,(2,3))", "(-6,(-1,8))", "(0,(-1,0))"},
  {"idx2crd", "(1,1)", "((2,2),(3,1))", NULL, "((1,0),(1,0))"},
  {"idx2crd", "(1,(1,0))", "(3,(2,(2,2)))", NULL, "(1,(1,(0,0)))"},
  {"idx2crd", "-7", "((1))", NULL, "((-7))"},
  {"idx2crd", "(1,2)", "(0,3)", NULL, "(1,2)"},
  {"idx2crd", "(0,0)", "(2,-3)", NULL, NULL},
  {"idx2crd", "(0,0)", "(6,(4,10))", NULL, "(0,(0,0))"},
  {"idx2crd", "1", "8", "2", "0"},
  {"idx2crd", "9", "1", "3", "0"},
  {"idx2crd", "0", "(2,3)", "(1,2)", "(0,0)"},
  {"idx2crd", "23", "(2,3)", "(3,1)", "(1,2)"},
  {"idx2crd", "7", "(2,(2,2))", "2", "(1,(1,0))"},
  {"idx2crd", "9", "((2,2),(2,2))", "3", "((1,1),(0,0))"},
  {"idx2crd", "0", "(2,1,3)", "(1,0,2)", "(0,0,0)"},
  {"idx2crd", "23", "(4,4)", "(4,1)", "(1,3)"},
  {"idx2crd", "(1,2)", "((2,3),4)", "((1,2),6)", "((1,0),0)"},
  {"idx2crd", "9", "(2,(3,(2,2)))", "3", "(1,(1,(0,0)))"},
  {"idx2crd", "5", "()", "()", "()"},
  {"idx2crd", "(3)", "((4))", "((2))", "((1))"},
  {"idx2crd", "7", "(2,2,2,2)", "2", "(1,1,0,0)"},
  {"idx2crd", "9", "(3,2)", "3", "(0,1)"},
  {"idx2crd", "(1,2)", "1", NULL, NULL},
  {"idx2crd", "(1,(0,1))", "8", NULL, NULL},
  {"idx2crd", "(1,1,2)", "(2,3)", NULL, NULL},
  {"idx2crd", "((1,2),3)", "(4,1)", NULL, NULL},
  {"idx2crd", "(1,1,2)", "(((4)))", NULL, NULL},
  {"idx2crd", "(1,2)", "((),2)", NULL, NULL},
  {"idx2crd", "(1,2)", "4", "0", NULL},
  {"idx2crd", "(3)", "(3,4)", "(0,1)", NULL},
  {"idx2crd", "(1,2)", "(2,3,4)", "(12,1,3)", NULL},
  {"idx2crd", "1", "4", "0", NULL},
  {"idx2crd", "((),0)", "()", NULL, NULL},
  {"crd2crd", "0", "(2,3)", "(2,3)", "(0,0)"},
  {"crd2crd", "0", "(2,3)", "(3,2)", "(0,0)"},
  {"crd2crd", "0", "(2,3)", "((2,3),4)", "((0,0),0)"},
  {"crd2crd", "0", "(2,3)", "(2,3,4)", "(0,0,0)"},
  {"crd2crd", "0", "6", "6", "0"},
  {"crd2crd", "0", "6", "(6,4)", "(0,0)"},
  {"crd2crd", "(1,2)", "(3,2)", "(2,3)", "(1,2)"},
  {"crd2crd", "(1,2)", "(3,2)", "(3,2)", "(1,2)"},
  {"crd2crd", "(1,2)", "(3,2)", "((2,3),4)", "((1,0),2)"},
  {"crd2crd", "0", "(3,2)", "(4,(2,3))", "(0,(0,0))"},
  {"crd2crd", "(2,3)", "(2,(3,1))", "(2,3)", "(2,3)"},
  {"crd2crd", "(1,2)", "(2,(3,1))", "(3,2)", "(1,2)"},
  {"crd2crd", "0", "(2,(3,1))", "((2,3),4)", "((0,0),0)"},
  {"crd2crd", "(1,(2,0))", "(2,(3,1))", "(6,4)", "(1,2)"},
  {"crd2crd", "(2,3)", "(2,(3,1))", "(4,(2,3))", "(2,(1,1))"},
  {"crd2crd", "(1,2)", "((2,3),4)", "6", "13"},
  {"crd2crd", "0", "((2,3),4)", "(2,(3,1))", "(0,(0,0))"},
  {"crd2crd", "((1,2),3)", "((2,3),4)", "((2,3),4)", "((1,2),3)"},
  {"crd2crd", "5", "((2,3),4)", "(2,3,4)", "(1,2,0)"},
  {"crd2crd", "(1,2)", "(6,4)", "(2,3)", "(1,2)"},
  {"crd2crd", "(1,2)", "(6,4)", "(3,2)", "(1,2)"},
  {"crd2crd", "(1,2)", "(6,4)", "((2,3),4)", "((1,0),2)"},
  {"crd2crd", "0", "(6,4)", "(4,(2,3))", "(0,(0,0))"},
  {"crd2crd", "(1,1,1)", "(2,3,4)", "6", "9"},
  {"crd2crd", "5", "(2,3,4)", "(6,4)", "(5,0)"},
  {"crd2crd", "(1,2)", "(4,(2,3))", "(2,3)", "(1,2)"},
  {"crd2crd", "0", "(4,(2,3))", "(3,2)", "(0,0)"},
  {"crd2crd", "(1,(2,0))", "(4,(2,3))", "(2,(3,1))", "(1,(2,0))"},
  {"crd2crd", "5", "(4,(2,3))", "(6,4)", "(5,0)"},
  {"crd2crd", "(1,2)", "(4,(2,3))", "(4,(2,3))", "(1,(0,1))"},
  {"crd2crd", "((1,2),3)", "(2,3)", "(2,3)", NULL},
  {"crd2crd", "(2,3)", "(2,3)", "(2,3,4)", NULL},
  {"crd2crd", "((1,2),3)", "6", "(2,(3,1))", NULL},
  {"crd2crd", "(1,(2,0))", "6", "(4,(2,3))", NULL},
  {"crd2crd", "(1,2)", "(3,2)", "(2,3,4)", NULL},
  {"crd2crd", "((1,2),3)", "(2,(3,1))", "(2,3,4)", NULL},
  {"crd2crd", "(2,3)", "((2,3),4)", "(2,3,4)", NULL},
  {"crd2crd", "(1,1,1)", "(6,4)", "(6,4)", NULL},
  {"crd2crd", "(2,3)", "(2,3,4)", "(3,2)", NULL},
  {"crd2crd", "(1,2)", "(2,3,4)", "(4,(2,3))", NULL},
  {"crd2crd", "(1,1,1)", "(4,(2,3))", "(2,3,4)", NULL},
};

static void format_int(char *out, size_t cap, int64_t v) { snprintf(out, cap, "%lld", (long long)v); }

static cl_status parse_path(const char *text, int64_t *path, int64_t *n) {
  *n = 0;
  for (const char *c = text; *c;) {
    char *end;
    path[(*n)++] = strtoll(c, &end, 10);
    c = *end == ',' ? end + 1 : end;
  }
  return CL_OK;
}

/* Runs one golden call through the C API; the result as canonical text. */
static cl_status run_golden(const golden *g, char *out, size_t cap) {
  cl_tuple_t *a = tup(g->a), *b = g->b && strcmp(g->fn, "get") ? tup(g->b) : NULL, *c = g->c ? tup(g->c) : NULL;
  cl_tuple_t *r = NULL;
  int64_t v = 0;
  int flag = 0;
  cl_status s = CL_E_UNSUPPORTED;
  enum { TUPLE, INT, BOOL } kind = TUPLE;
  const char *fn = g->fn;
  if (!strcmp(fn, "size") || !strcmp(fn, "product")) {
    kind = INT;
    s = cl_tuple_product(a, &v);
  } else if (!strcmp(fn, "sum")) {
    kind = INT;
    s = cl_tuple_sum(a, &v);
  } else if (!strcmp(fn, "rank")) {
    kind = INT;
    v = cl_tuple_rank(a);
    s = CL_OK;
  } else if (!strcmp(fn, "depth")) {
    kind = INT;
    v = cl_tuple_depth(a);
    s = v < 0 ? (cl_status)v : CL_OK;
  } else if (!strcmp(fn, "flatten")) {
    s = cl_tuple_flatten(a, &r);
  } else if (!strcmp(fn, "compact_col_major")) {
    s = cl_compact_col_major(a, &r);
  } else if (!strcmp(fn, "compact_row_major")) {
    s = cl_compact_row_major(a, &r);
  } else if (!strcmp(fn, "inner_product")) {
    kind = INT;
    s = cl_tuple_inner_product(a, b, &v);
  } else if (!strcmp(fn, "shape_div")) {
    s = cl_tuple_shape_div(a, b, &r);
  } else if (!strcmp(fn, "ceil_div")) {
    s = cl_tuple_ceil_div(a, b, &r);
  } else if (!strcmp(fn, "elem_scale")) {
    s = cl_tuple_elem_scale(a, b, &r);
  } else if (!strcmp(fn, "congruent")) {
    kind = BOOL;
    s = cl_tuple_congruent(a, b, &flag);
  } else if (!strcmp(fn, "weakly_congruent")) {
    kind = BOOL;
    s = cl_tuple_weakly_congruent(a, b, &flag);
  } else if (!strcmp(fn, "compatible")) {
    kind = BOOL;
    s = cl_tuple_compatible(a, b, &flag);
  } else if (!strcmp(fn, "unflatten")) {
    s = cl_tuple_unflatten(a, b, &r);
  } else if (!strcmp(fn, "get")) {
    int64_t path[16], n;
    parse_path(g->b, path, &n);
    s = cl_tuple_get(a, path, n, &r);
  } else if (!strcmp(fn, "crd2idx")) {
    kind = INT;
    s = c ? cl_crd2idx(a, b, c, &v) : cl_crd2idx_shape(a, b, &v);
  } else if (!strcmp(fn, "idx2crd")) {
    s = c ? cl_idx2crd_strided(a, b, c, &r) : cl_idx2crd(a, b, &r);
  } else if (!strcmp(fn, "crd2crd")) {
    s = cl_crd2crd(a, b, c, &r);
  } else {
    fail_msg("no golden dispatch for %s", fn);
  }
  if (s == CL_OK) {
    if (kind == TUPLE)
      snprintf(out, cap, "%s", tuple_text(r));
    else if (kind == INT)
      format_int(out, cap, v);
    else
      snprintf(out, cap, "%s", flag ? "true" : "false");
  } else if (kind == TUPLE) {
    assert_null(r);
  }
  cl_tuple_free(r);
  cl_tuple_free(a);
  cl_tuple_free(b);
  cl_tuple_free(c);
  return s;
}

static void test_golden_answers_of_cute(void **state) {
  (void)state;
  for (size_t i = 0; i < COUNT_OF(goldens); i++) {
    const golden *g = &goldens[i];
    char got[8192];
    cl_status s = run_golden(g, got, sizeof got);
    if (g->expected == NULL) {
      if (s == CL_OK)
        fail_msg("%s(%s, %s, %s) = %s, but CuTe rejects it", g->fn, g->a, g->b ? g->b : "-", g->c ? g->c : "-", got);
      assert_true(s < 0);
      assert_true(cl_last_error()[0] != '\0');
    } else {
      if (s != CL_OK)
        fail_msg("%s(%s, %s, %s) failed (%d: %s); CuTe gives %s", g->fn, g->a, g->b ? g->b : "-", g->c ? g->c : "-", s,
                 cl_last_error(), g->expected);
      if (strcmp(got, g->expected) != 0)
        fail_msg("%s(%s, %s, %s) = %s; CuTe gives %s", g->fn, g->a, g->b ? g->b : "-", g->c ? g->c : "-", got,
                 g->expected);
    }
  }
}

/* ------------------------------------------------------- making tuples */

static void test_constructors(void **state) {
  (void)state;
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_tuple_int(-7, &t), CL_OK);
  assert_tuple_is(t, "-7");
  assert_int_equal(cl_tuple_kind(t), CL_KIND_INT);
  int64_t v = 0;
  assert_int_equal(cl_tuple_value(t, &v), CL_OK);
  assert_int_equal(v, -7);
  cl_tuple_free(t);

  assert_int_equal(cl_tuple_underscore(&t), CL_OK);
  assert_tuple_is(t, "_");
  assert_int_equal(cl_tuple_kind(t), CL_KIND_UNDERSCORE);
  assert_int_equal(cl_tuple_value(t, &v), CL_E_TYPE);
  cl_tuple_free(t);

  const int64_t values[] = {2, INT64_MAX, INT64_MIN, 0};
  assert_int_equal(cl_tuple_from_ints(values, 4, &t), CL_OK);
  assert_tuple_is(t, "(2,9223372036854775807,-9223372036854775808,0)");
  assert_int_equal(cl_tuple_kind(t), CL_KIND_TUPLE);
  assert_int_equal(cl_tuple_value(t, &v), CL_E_TYPE);
  cl_tuple_free(t);
  assert_int_equal(cl_tuple_from_ints(NULL, 0, &t), CL_OK);
  assert_tuple_is(t, "()");
  cl_tuple_free(t);
  assert_int_equal(cl_tuple_from_ints(values, 1, &t), CL_OK);
  assert_tuple_is(t, "(2)");
  cl_tuple_free(t);

  cl_tuple_t *a = tup("(1,_)"), *b = tup("2:3"), *c = tup("()");
  const cl_tuple_t *elems[] = {a, b, c, a};
  assert_int_equal(cl_tuple_make(elems, 4, &t), CL_OK);
  assert_tuple_is(t, "((1,_),2:3,(),(1,_))");
  cl_tuple_t *copy = NULL;
  assert_int_equal(cl_tuple_copy(t, &copy), CL_OK);
  assert_true(cl_tuple_equal(t, copy));
  assert_false(cl_tuple_equal(t, a));
  assert_false(cl_tuple_equal(t, NULL));
  cl_tuple_free(copy);
  cl_tuple_free(t);
  assert_int_equal(cl_tuple_make(NULL, 0, &t), CL_OK);
  assert_tuple_is(t, "()");
  cl_tuple_free(t);

  cl_layout_t *l = lay("(2,3):(1,2)"), *back = NULL;
  assert_int_equal(cl_tuple_from_layout(l, &t), CL_OK);
  assert_tuple_is(t, "(2,3):(1,2)");
  assert_int_equal(cl_tuple_kind(t), CL_KIND_LAYOUT);
  assert_int_equal(cl_tuple_layout(t, &back), CL_OK);
  assert_true(cl_layout_equal(l, back));
  cl_layout_free(back);
  back = (cl_layout_t *)1;
  assert_int_equal(cl_tuple_layout(a, &back), CL_E_TYPE);
  assert_null(back);
  cl_tuple_free(t);
  cl_layout_free(l);
  cl_tuple_free(a);
  cl_tuple_free(b);
  cl_tuple_free(c);
  cl_tuple_free(NULL);
}

static void test_constructor_errors(void **state) {
  (void)state;
  cl_tuple_t *t = (cl_tuple_t *)1;
  const int64_t values[] = {1};
  assert_int_equal(cl_tuple_int(1, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_underscore(NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_from_ints(NULL, 2, &t), CL_E_NULL);
  assert_null(t);
  t = (cl_tuple_t *)1;
  assert_int_equal(cl_tuple_from_ints(values, -1, &t), CL_E_DOMAIN);
  assert_null(t);
  assert_int_equal(cl_tuple_from_ints(values, 1, NULL), CL_E_NULL);
  t = (cl_tuple_t *)1;
  assert_int_equal(cl_tuple_make(NULL, 1, &t), CL_E_NULL);
  assert_null(t);
  const cl_tuple_t *holes[] = {NULL};
  assert_int_equal(cl_tuple_make(holes, 1, &t), CL_E_NULL);
  assert_int_equal(cl_tuple_make(holes, -1, &t), CL_E_DOMAIN);
  assert_int_equal(cl_tuple_from_layout(NULL, &t), CL_E_NULL);
  assert_int_equal(cl_tuple_copy(NULL, &t), CL_E_NULL);
  assert_null(t);
  assert_int_equal(cl_tuple_value(NULL, &(int64_t){0}), CL_E_NULL);
  cl_tuple_t *x = tup("3");
  assert_int_equal(cl_tuple_value(x, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_layout(NULL, &(cl_layout_t *){NULL}), CL_E_NULL);
  assert_int_equal(cl_tuple_layout(x, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_kind(NULL), CL_KIND_INT);
  assert_int_equal(cl_tuple_rank(NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_depth(NULL), CL_E_NULL);
  assert_false(cl_tuple_equal(NULL, NULL));
  cl_tuple_free(x);
}

/* The rank limit applies to every way of making a tuple. */
static void test_rank_limit(void **state) {
  (void)state;
  int64_t *values = calloc(CL_MAX_RANK + 1, sizeof *values);
  assert_non_null(values);
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_tuple_from_ints(values, CL_MAX_RANK, &t), CL_OK);
  assert_int_equal(cl_tuple_rank(t), CL_MAX_RANK);
  cl_tuple_free(t);
  t = (cl_tuple_t *)1;
  assert_int_equal(cl_tuple_from_ints(values, CL_MAX_RANK + 1, &t), CL_E_LIMIT);
  assert_null(t);
  free(values);
}

/* ------------------------------------------------------- inspecting */

static void test_rank_depth_get(void **state) {
  (void)state;
  static const struct { const char *t; int64_t rank, depth; } cases[] = {
    {"8", 1, 0}, {"_", 1, 0}, {"(8)", 1, 1}, {"((8))", 1, 2}, {"(2,(3,4))", 2, 2}, {"(1,2,3)", 3, 1},
    {"(2,(3,(4,(5))))", 2, 4}, {"2:1", 1, 0}, {"((2,2):(1,2),3)", 2, 2}, {"()", 0, -7}, {"((),2)", 2, -7},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_tuple_t *t = tup(cases[i].t);
    assert_int_equal(cl_tuple_rank(t), cases[i].rank);
    assert_int_equal(cl_tuple_depth(t), cases[i].depth);
    cl_tuple_free(t);
  }

  cl_tuple_t *t = tup("(2,(3,(4,_)),7:1)"), *r = NULL;
  static const struct { int64_t path[4]; int64_t n; const char *expected; } gets[] = {
    {{0}, 0, "(2,(3,(4,_)),7:1)"}, {{0}, 1, "2"}, {{1}, 1, "(3,(4,_))"}, {{1, 1, 1}, 3, "_"},
    {{1, 1, 0}, 3, "4"}, {{0, 0, 0}, 3, "2"}, {{2}, 1, "7:1"}, {{2, 0}, 2, "7:1"},
  };
  for (size_t i = 0; i < COUNT_OF(gets); i++) {
    assert_int_equal(cl_tuple_get(t, gets[i].path, gets[i].n, &r), CL_OK);
    assert_tuple_is(r, gets[i].expected);
    cl_tuple_free(r);
  }
  static const struct { int64_t path[3]; int64_t n; } bad[] = {{{3}, 1}, {{-1}, 1}, {{0, 1}, 2}, {{1, 2}, 2}};
  for (size_t i = 0; i < COUNT_OF(bad); i++) {
    r = (cl_tuple_t *)1;
    assert_int_equal(cl_tuple_get(t, bad[i].path, bad[i].n, &r), CL_E_DOMAIN);
    assert_null(r);
    assert_non_null(strstr(cl_last_error(), "out of range"));
  }
  assert_int_equal(cl_tuple_get(t, NULL, 1, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_get(NULL, gets[0].path, 1, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_get(t, gets[0].path, 1, NULL), CL_E_NULL);
  cl_tuple_free(t);
}

/* ------------------------------------------------------- int_tuple.hpp */

static void test_reductions(void **state) {
  (void)state;
  static const struct { const char *t; int64_t product, sum; } cases[] = {
    {"8", 8, 8}, {"()", 1, 0}, {"(2,(3,4))", 24, 9}, {"(0,5)", 0, 5}, {"(-2,3)", -6, 1}, {"((),(()))", 1, 0},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_tuple_t *t = tup(cases[i].t);
    int64_t p = 0, s = 0;
    assert_int_equal(cl_tuple_product(t, &p), CL_OK);
    assert_int_equal(cl_tuple_sum(t, &s), CL_OK);
    assert_int_equal(p, cases[i].product);
    assert_int_equal(s, cases[i].sum);
    cl_tuple_free(t);
  }
  int64_t v = 0;
  cl_tuple_t *big = tup("(9223372036854775807,2)"), *neg = tup("(-9223372036854775808,-1)"), *u = tup("(2,1:1)");
  /* CuTe's Underscore is an Int<0>. */
  cl_tuple_t *under = tup("(3,(_,2))");
  assert_int_equal(cl_tuple_product(under, &v), CL_OK);
  assert_int_equal(v, 0);
  assert_int_equal(cl_tuple_sum(under, &v), CL_OK);
  assert_int_equal(v, 5);
  cl_tuple_free(under);
  assert_int_equal(cl_tuple_product(big, &v), CL_E_OVERFLOW);
  assert_non_null(strstr(cl_last_error(), "overflow"));
  assert_int_equal(cl_tuple_sum(big, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_tuple_product(neg, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_tuple_sum(neg, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_tuple_product(u, &v), CL_E_TYPE);
  assert_int_equal(cl_tuple_sum(u, &v), CL_E_TYPE);
  assert_int_equal(cl_tuple_product(NULL, &v), CL_E_NULL);
  assert_int_equal(cl_tuple_product(big, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_sum(NULL, &v), CL_E_NULL);
  assert_int_equal(cl_tuple_sum(big, NULL), CL_E_NULL);

  cl_tuple_t *a = tup("(4611686018427387904,1)"), *two = tup("(2,0)"), *flat = tup("(1,2)");
  assert_int_equal(cl_tuple_inner_product(a, two, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_tuple_inner_product(big, flat, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_tuple_inner_product(u, flat, &v), CL_E_TYPE);
  assert_int_equal(cl_tuple_inner_product(flat, big, &v), CL_E_OVERFLOW);
  cl_tuple_t *x = tup("(2,(3,4))"), *y = tup("(5,(6,7))"), *z = tup("(5,6,7)");
  assert_int_equal(cl_tuple_inner_product(x, y, &v), CL_OK);
  assert_int_equal(v, 56);
  assert_int_equal(cl_tuple_inner_product(x, z, &v), CL_E_RANK);
  cl_tuple_free(x);
  cl_tuple_free(y);
  cl_tuple_free(z);
  assert_int_equal(cl_tuple_inner_product(NULL, flat, &v), CL_E_NULL);
  assert_int_equal(cl_tuple_inner_product(flat, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_tuple_inner_product(flat, flat, NULL), CL_E_NULL);
  cl_tuple_free(big);
  cl_tuple_free(neg);
  cl_tuple_free(u);
  cl_tuple_free(a);
  cl_tuple_free(two);
  cl_tuple_free(flat);
}

static void test_flatten_unflatten(void **state) {
  (void)state;
  expect_tuple1(cl_tuple_flatten, "8", "8");
  expect_tuple1(cl_tuple_flatten, "()", "()");
  expect_tuple1(cl_tuple_flatten, "((),(2,()))", "(2)");
  expect_tuple1(cl_tuple_flatten, "(2,(3,(4,_)),1:1)", "(2,3,4,_,1:1)");
  expect_tuple2(cl_tuple_unflatten, "(1,2,3,4)", "((0,0),(0,(0)))", "((1,2),(3,(4)))");
  expect_tuple2(cl_tuple_unflatten, "(1,2)", "(7,7)", "(1,2)");
  expect_tuple2(cl_tuple_unflatten, "8", "1", "8");
  expect_tuple2(cl_tuple_unflatten, "8", "(1)", "(8)");
  expect_tuple2(cl_tuple_unflatten, "()", "()", "()");
  expect_tuple2(cl_tuple_unflatten, "(1,2)", "((0,()),0)", "((1,()),2)");
  expect_tuple2_fails(cl_tuple_unflatten, "(1,2,3)", "(0,0)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_unflatten, "(1,2)", "(0,0,0)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_unflatten, "8", "()", CL_E_RANK);
  cl_tuple_t *r = (cl_tuple_t *)1, *a = tup("(1,2)");
  assert_int_equal(cl_tuple_flatten(NULL, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_tuple_flatten(a, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_unflatten(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_unflatten(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_unflatten(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

static void test_profiles(void **state) {
  (void)state;
  static const struct { const char *a, *b; int congruent, weakly, compatible; } cases[] = {
    {"8", "8", 1, 1, 1}, {"8", "3", 1, 1, 0}, {"8", "(2,4)", 0, 1, 1}, {"(2,4)", "8", 0, 0, 0},
    {"(8)", "8", 0, 0, 0}, {"8", "(8)", 0, 1, 1}, {"(2,(2,2))", "(4,(1,8))", 1, 1, 0}, {"(2,4)", "(2,(2,2))", 0, 1, 1},
    {"()", "()", 1, 1, 1}, {"(1,())", "(1,())", 1, 1, 1}, {"(2,3)", "(2,3,1)", 0, 0, 0}, {"1", "()", 0, 1, 1},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_tuple_t *a = tup(cases[i].a), *b = tup(cases[i].b);
    int c = -1, w = -1, k = -1;
    assert_int_equal(cl_tuple_congruent(a, b, &c), CL_OK);
    assert_int_equal(cl_tuple_weakly_congruent(a, b, &w), CL_OK);
    assert_int_equal(cl_tuple_compatible(a, b, &k), CL_OK);
    if (c != cases[i].congruent || w != cases[i].weakly || k != cases[i].compatible)
      fail_msg("%s vs %s: congruent %d weakly %d compatible %d", cases[i].a, cases[i].b, c, w, k);
    cl_tuple_free(a);
    cl_tuple_free(b);
  }
  cl_tuple_t *a = tup("(2,3)"), *u = tup("(2,1:1)"), *under = tup("(2,_)");
  int r = -1;
  assert_int_equal(cl_tuple_compatible(a, under, &r), CL_OK); /* '_' counts as 0 */
  assert_int_equal(r, 0);
  cl_tuple_free(under);
  assert_int_equal(cl_tuple_congruent(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_congruent(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_congruent(a, a, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_weakly_congruent(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_weakly_congruent(a, a, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_compatible(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_compatible(a, a, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_compatible(u, a, &r), CL_E_TYPE);
  cl_tuple_free(a);
  cl_tuple_free(u);
}

static void test_divisions(void **state) {
  (void)state;
  /* shape_div folds an integer divisor across the modes. */
  expect_tuple2(cl_tuple_shape_div, "(4,5,6)", "40", "(1,1,3)");
  expect_tuple2(cl_tuple_shape_div, "(3,6,9,12)", "54", "(1,1,3,12)");
  expect_tuple2(cl_tuple_shape_div, "((4,2),3)", "4", "((1,2),3)");
  expect_tuple2(cl_tuple_shape_div, "(6,(4,10))", "(3,(2,5))", "(2,(2,2))");
  expect_tuple2(cl_tuple_shape_div, "6", "(2,3)", "1");
  expect_tuple2(cl_tuple_shape_div, "2", "6", "1");
  expect_tuple2(cl_tuple_shape_div, "0", "4", "0");
  expect_tuple2_fails(cl_tuple_shape_div, "3", "2", CL_E_DIVISIBILITY);
  expect_tuple2_fails(cl_tuple_shape_div, "4", "0", CL_E_DOMAIN);
  expect_tuple2_fails(cl_tuple_shape_div, "(2,3)", "(1,1,1)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_shape_div, "(2,_)", "2", CL_E_TYPE);
  expect_tuple2(cl_tuple_ceil_div, "(4,5,6)", "40", "(1,1,3)");
  expect_tuple2(cl_tuple_ceil_div, "(7,3)", "(2)", "(4,3)");
  expect_tuple2(cl_tuple_ceil_div, "7", "(2,2)", "2");
  expect_tuple2(cl_tuple_ceil_div, "-7", "2", "-3");
  expect_tuple2_fails(cl_tuple_ceil_div, "(7)", "(2,2)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_ceil_div, "7", "0", CL_E_DOMAIN);
  expect_tuple2_fails(cl_tuple_ceil_div, "9223372036854775807", "2", CL_E_OVERFLOW);
  expect_tuple2(cl_tuple_elem_scale, "(2,(3,4))", "(5,((2,2),1))", "(10,(12,4))");
  expect_tuple2(cl_tuple_elem_scale, "3", "(2,2)", "12");
  expect_tuple2_fails(cl_tuple_elem_scale, "(3,4)", "2", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_elem_scale, "4611686018427387904", "2", CL_E_OVERFLOW);
  expect_tuple1(cl_tuple_prefix_product, "(2,(3,4),5)", "(1,(2,6),24)");
  expect_tuple1(cl_tuple_prefix_product, "7", "1");
  expect_tuple1(cl_tuple_prefix_product, "()", "()");
  expect_tuple1_fails(cl_tuple_prefix_product, "(9223372036854775807,2,2)", CL_E_OVERFLOW);
  expect_tuple1_fails(cl_tuple_prefix_product, "(2,_)", CL_E_TYPE);
  cl_tuple_t *a = tup("2"), *r = (cl_tuple_t *)1;
  assert_int_equal(cl_tuple_shape_div(NULL, a, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_tuple_shape_div(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_shape_div(a, a, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_ceil_div(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_elem_scale(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_prefix_product(NULL, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_prefix_product(a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

/* ------------------------------------------------------- stride.hpp */

static void test_compact_strides(void **state) {
  (void)state;
  expect_tuple1(cl_compact_col_major, "(2,(3,4),5)", "(1,(2,6),24)");
  expect_tuple1(cl_compact_row_major, "(2,(3,4),5)", "(60,(20,5),1)");
  expect_tuple1(cl_compact_col_major, "(2,1,3)", "(1,0,2)");
  expect_tuple1(cl_compact_row_major, "(2,1,3)", "(3,0,1)");
  expect_tuple1(cl_compact_col_major, "1", "0");
  expect_tuple1(cl_compact_col_major, "()", "()");
  expect_tuple1(cl_compact_col_major, "(0,3)", "(1,0)");
  expect_tuple1_fails(cl_compact_col_major, "(4294967296,4294967296,2)", CL_E_OVERFLOW);
  expect_tuple1_fails(cl_compact_row_major, "(2,4294967296,4294967296)", CL_E_OVERFLOW);
  expect_tuple1_fails(cl_compact_col_major, "(2,_)", CL_E_TYPE);
  /* Ordered: ties share a start; an order leaf may cover a whole sub-shape. */
  expect_tuple2(cl_compact_order, "(2,3,4)", "(2,0,1)", "(12,1,3)");
  expect_tuple2(cl_compact_order, "(2,3,4)", "(0,0,1)", "(1,1,6)");
  expect_tuple2(cl_compact_order, "((2,3),4)", "(1,0)", "((4,8),1)");
  expect_tuple2(cl_compact_order, "(2,(3,4))", "(1,(0,2))", "(3,(1,6))");
  expect_tuple2_fails(cl_compact_order, "(2,3)", "((0,1),2)", CL_E_RANK);
  expect_tuple2_fails(cl_compact_order, "(2,3)", "(0,1,2)", CL_E_RANK);
  expect_tuple2_fails(cl_compact_order, "3", "(0)", CL_E_RANK);
  cl_tuple_t *r = (cl_tuple_t *)1, *a = tup("2");
  assert_int_equal(cl_compact_col_major(NULL, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_compact_col_major(a, NULL), CL_E_NULL);
  assert_int_equal(cl_compact_row_major(NULL, &r), CL_E_NULL);
  assert_int_equal(cl_compact_order(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_compact_order(a, NULL, &r), CL_E_NULL);
  cl_tuple_free(a);
}

static int64_t crd2idx3(const char *crd, const char *shape, const char *stride, cl_status expect) {
  cl_tuple_t *c = tup(crd), *s = tup(shape), *d = tup(stride);
  int64_t v = -12345;
  cl_status st = cl_crd2idx(c, s, d, &v);
  if (st != expect)
    fail_msg("crd2idx(%s, %s, %s) = %d, expected %d (%s)", crd, shape, stride, st, expect, cl_last_error());
  cl_tuple_free(c);
  cl_tuple_free(s);
  cl_tuple_free(d);
  return v;
}

static void test_coordinates(void **state) {
  (void)state;
  assert_int_equal(crd2idx3("(1,(1,0))", "(2,(2,2))", "(4,(2,1))", CL_OK), 6);
  assert_int_equal(crd2idx3("5", "(2,(2,2))", "(4,(2,1))", CL_OK), 4 + 0 * 2 + 1 * 1);
  /* Out-of-range integer coordinates: the last mode takes the rest. */
  assert_int_equal(crd2idx3("9", "(2,3)", "(1,10)", CL_OK), 1 + 4 * 10);
  assert_int_equal(crd2idx3("-1", "(2,3)", "(1,10)", CL_OK), -1);
  assert_int_equal(crd2idx3("(5,_)", "(2,3)", "(1,10)", CL_OK), 5);
  crd2idx3("(1,2,3)", "(2,3)", "(1,2)", CL_E_RANK);
  crd2idx3("((1,1),2)", "(2,3)", "(1,2)", CL_E_RANK);
  crd2idx3("1", "(2,())", "(1,())", CL_E_DOMAIN);
  crd2idx3("1", "(2,3)", "(1,_)", CL_E_TYPE);
  crd2idx3("(4611686018427387904,0)", "(2,3)", "(2,1)", CL_E_OVERFLOW);
  crd2idx3("(1,1)", "(2,3)", "(9223372036854775807,1)", CL_E_OVERFLOW);

  cl_tuple_t *c = tup("(1,(2,3))"), *s = tup("(2,(3,4))"), *r = NULL;
  int64_t v = 0;
  assert_int_equal(cl_crd2idx_shape(c, s, &v), CL_OK);
  assert_int_equal(v, 1 + 2 * 2 + 3 * 6);
  assert_int_equal(cl_crd2idx_shape(NULL, s, &v), CL_E_NULL);
  assert_int_equal(cl_crd2idx_shape(c, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_crd2idx_shape(c, s, NULL), CL_E_NULL);
  assert_int_equal(cl_crd2idx(NULL, s, s, &v), CL_E_NULL);
  assert_int_equal(cl_crd2idx(c, NULL, s, &v), CL_E_NULL);
  assert_int_equal(cl_crd2idx(c, s, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_crd2idx(c, s, s, NULL), CL_E_NULL);
  assert_int_equal(cl_idx2crd(NULL, s, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_idx2crd(c, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_idx2crd(c, s, NULL), CL_E_NULL);
  cl_tuple_free(c);
  cl_tuple_free(s);

  expect_tuple2(cl_idx2crd, "23", "(2,(3,4))", "(1,(2,3))");
  expect_tuple2(cl_idx2crd, "100", "(2,(3,4))", "(0,(2,16))");
  expect_tuple2(cl_idx2crd, "-5", "(2,3)", "(-1,-2)");
  expect_tuple2(cl_idx2crd, "7", "8", "7");
  expect_tuple2(cl_idx2crd, "(5,7)", "((2,3),4)", "((1,2),7)");
  expect_tuple2(cl_idx2crd, "0", "(0,3)", "(0,0)");
  expect_tuple2_fails(cl_idx2crd, "1", "(0,3)", CL_E_DOMAIN);
  expect_tuple2_fails(cl_idx2crd, "(1,2)", "6", CL_E_RANK);
  expect_tuple2_fails(cl_idx2crd, "3", "(2,())", CL_E_DOMAIN);
  expect_tuple2_fails(cl_idx2crd, "_", "(2,3)", CL_E_TYPE);
}

static void test_strided_and_crd2crd(void **state) {
  (void)state;
  cl_tuple_t *i = tup("7"), *s = tup("(2,(2,2))"), *d = tup("(4,(2,1))"), *r = NULL;
  assert_int_equal(cl_idx2crd_strided(i, s, d, &r), CL_OK);
  assert_tuple_is(r, "(1,(1,1))");
  cl_tuple_free(r);
  cl_tuple_t *two = tup("2");
  /* An integer stride stands for the compact column-major strides from it. */
  assert_int_equal(cl_idx2crd_strided(i, s, two, &r), CL_OK);
  assert_tuple_is(r, "(1,(1,0))");
  cl_tuple_free(r);
  cl_tuple_t *zero = tup("(0,(2,1))");
  r = (cl_tuple_t *)1;
  assert_int_equal(cl_idx2crd_strided(i, s, zero, &r), CL_E_DOMAIN);
  assert_null(r);
  cl_tuple_t *one = tup("(1,(2,2))");
  assert_int_equal(cl_idx2crd_strided(i, one, zero, &r), CL_OK);
  assert_tuple_is(r, "(0,(1,1))");
  cl_tuple_free(r);
  /* INT64_MIN / -1 does not fit: an overflow, not a trap or a wrapped coordinate */
  cl_tuple_t *min = tup("-9223372036854775808"), *minus_one = tup("(-1,(1,2))");
  r = (cl_tuple_t *)1;
  assert_int_equal(cl_idx2crd_strided(min, s, minus_one, &r), CL_E_OVERFLOW);
  assert_null(r);
  assert_string_equal(cl_last_error(), "integer overflow in -9223372036854775808 / -1");
  cl_tuple_free(minus_one);
  cl_tuple_free(min);
  assert_int_equal(cl_idx2crd_strided(NULL, s, d, &r), CL_E_NULL);
  assert_int_equal(cl_idx2crd_strided(i, NULL, d, &r), CL_E_NULL);
  assert_int_equal(cl_idx2crd_strided(i, s, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_idx2crd_strided(i, s, d, NULL), CL_E_NULL);
  cl_tuple_free(i);
  cl_tuple_free(s);
  cl_tuple_free(d);
  cl_tuple_free(two);
  cl_tuple_free(zero);
  cl_tuple_free(one);

  cl_tuple_t *crd = tup("(1,2)"), *from = tup("(2,3)"), *to = tup("(3,2)");
  assert_int_equal(cl_crd2crd(crd, from, to, &r), CL_OK);
  assert_tuple_is(r, "(1,2)");
  cl_tuple_free(r);
  cl_tuple_t *six = tup("6"), *nested = tup("((2,3),4)"), *nc = tup("((1,2),3)"), *flat = tup("(6,4)");
  assert_int_equal(cl_crd2crd(crd, from, six, &r), CL_OK);
  assert_tuple_is(r, "5");
  cl_tuple_free(r);
  assert_int_equal(cl_crd2crd(nc, nested, flat, &r), CL_OK);
  assert_tuple_is(r, "(5,3)");
  cl_tuple_free(r);
  assert_int_equal(cl_crd2crd(nc, nested, six, &r), CL_OK);
  assert_tuple_is(r, "23");
  cl_tuple_free(r);
  r = (cl_tuple_t *)1;
  assert_int_equal(cl_crd2crd(crd, from, nested, &r), CL_OK);
  assert_tuple_is(r, "((1,0),2)"); /* mode by mode: 1 in 2 -> (1,0) in (2,3) */
  cl_tuple_free(r);
  cl_tuple_t *rank3 = tup("(2,3,4)");
  r = (cl_tuple_t *)1;
  assert_int_equal(cl_crd2crd(crd, from, rank3, &r), CL_E_RANK);
  cl_tuple_free(rank3);
  assert_null(r);
  assert_int_equal(cl_crd2crd(NULL, from, to, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_crd2crd(crd, NULL, to, &r), CL_E_NULL);
  assert_int_equal(cl_crd2crd(crd, from, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_crd2crd(crd, from, to, NULL), CL_E_NULL);
  cl_tuple_free(crd);
  cl_tuple_free(from);
  cl_tuple_free(to);
  cl_tuple_free(six);
  cl_tuple_free(nested);
  cl_tuple_free(nc);
  cl_tuple_free(flat);
}

/* --------------------------------------------------------- properties */

typedef struct {
  int shapes, points;
} stats;

/* For one shape: idx2crd and crd2idx are inverse on [0, size); the
 * coordinate is colexicographic (its flattened digits, first fastest);
 * compact column-major strides map every coordinate back to its index, and
 * row-major strides are a permutation of [0, size) ordered lexicographically. */
static void check_shape(const char *layout_text_, void *ctx) {
  stats *st = ctx;
  const char *colon = strchr(layout_text_, ':');
  char shape_text[128];
  memcpy(shape_text, layout_text_, (size_t)(colon - layout_text_));
  shape_text[colon - layout_text_] = '\0';
  cl_tuple_t *shape = tup(shape_text), *flat = NULL, *col = NULL, *row = NULL;
  assert_int_equal(cl_tuple_flatten(shape, &flat), CL_OK);
  assert_int_equal(cl_compact_col_major(shape, &col), CL_OK);
  assert_int_equal(cl_compact_row_major(shape, &row), CL_OK);
  int64_t size = 0, rank = cl_tuple_rank(flat);
  assert_int_equal(cl_tuple_product(shape, &size), CL_OK);
  int64_t extents[8];
  for (int64_t k = 0; k < rank; k++) {
    cl_tuple_t *e = NULL;
    assert_int_equal(cl_tuple_get(flat, &k, cl_tuple_kind(flat) == CL_KIND_TUPLE, &e), CL_OK);
    assert_int_equal(cl_tuple_value(e, &extents[k]), CL_OK);
    cl_tuple_free(e);
  }
  char *seen = calloc((size_t)size + 1, 1);
  assert_non_null(seen);
  for (int64_t i = 0; i < size; i++) {
    cl_tuple_t *idx = NULL, *crd = NULL, *crd_flat = NULL;
    assert_int_equal(cl_tuple_int(i, &idx), CL_OK);
    assert_int_equal(cl_idx2crd(idx, shape, &crd), CL_OK);
    int congruent = 0;
    assert_int_equal(cl_tuple_congruent(crd, shape, &congruent), CL_OK);
    assert_true(congruent);
    int64_t back = -1, col_index = -1, row_index = -1;
    assert_int_equal(cl_crd2idx_shape(crd, shape, &back), CL_OK);
    assert_int_equal(back, i);
    assert_int_equal(cl_crd2idx(crd, shape, col, &col_index), CL_OK);
    assert_int_equal(col_index, i);
    assert_int_equal(cl_crd2idx(idx, shape, col, &col_index), CL_OK);
    assert_int_equal(col_index, i);
    /* The digits of i, first fastest, are the flattened coordinate. */
    assert_int_equal(cl_tuple_flatten(crd, &crd_flat), CL_OK);
    int64_t rest = i, lex = 0;
    for (int64_t k = 0; k < rank; k++) {
      int64_t digit = 0, path = k;
      cl_tuple_t *e = NULL;
      assert_int_equal(cl_tuple_get(crd_flat, &path, cl_tuple_kind(crd_flat) == CL_KIND_TUPLE, &e), CL_OK);
      assert_int_equal(cl_tuple_value(e, &digit), CL_OK);
      cl_tuple_free(e);
      assert_int_equal(digit, rest % extents[k]);
      rest /= extents[k];
    }
    for (int64_t k = 0; k < rank; k++) {
      int64_t digit = 0, path = k;
      cl_tuple_t *e = NULL;
      assert_int_equal(cl_tuple_get(crd_flat, &path, cl_tuple_kind(crd_flat) == CL_KIND_TUPLE, &e), CL_OK);
      assert_int_equal(cl_tuple_value(e, &digit), CL_OK);
      cl_tuple_free(e);
      lex = lex * extents[k] + digit;
    }
    assert_int_equal(cl_crd2idx(crd, shape, row, &row_index), CL_OK);
    assert_int_equal(row_index, lex);
    assert_false(seen[row_index]);
    seen[row_index] = 1;
    cl_tuple_free(idx);
    cl_tuple_free(crd);
    cl_tuple_free(crd_flat);
    st->points++;
  }
  free(seen);
  cl_tuple_free(shape);
  cl_tuple_free(flat);
  cl_tuple_free(col);
  cl_tuple_free(row);
  st->shapes++;
}

static void test_coordinate_properties(void **state) {
  (void)state;
  static const int extents[] = {1, 2, 3, 4};
  static const int strides[] = {1};
  stats st = {0, 0};
  for_each_small_layout(extents, 4, strides, 1, check_shape, &st);
  assert_true(st.shapes > 100);
  assert_true(st.points > 1000);
}

/* ------------------------------------------------------------ int_tuple.hpp's other functions */

typedef cl_status (*tuple_reduce_fn)(const cl_tuple_t *, int64_t *);

static int64_t reduce_of(tuple_reduce_fn f, const char *text, cl_status expect) {
  cl_tuple_t *t = tup(text);
  int64_t v = -777;
  cl_status s = f(t, &v);
  if (s != expect)
    fail_msg("reduction of %s = %d, expected %d (%s)", text, s, expect, cl_last_error());
  cl_tuple_free(t);
  return v;
}

static void test_max_min_gcd(void **state) {
  (void)state;
  assert_int_equal(reduce_of(cl_tuple_max, "(3,(5,(2,7)),4)", CL_OK), 7);
  assert_int_equal(reduce_of(cl_tuple_min, "(3,(5,(2,7)),4)", CL_OK), 2);
  assert_int_equal(reduce_of(cl_tuple_max, "(-3,-5)", CL_OK), -3);
  assert_int_equal(reduce_of(cl_tuple_max, "9", CL_OK), 9);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(12,(18,30))", CL_OK), 6);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(0,0)", CL_OK), 0);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(0,5)", CL_OK), 5);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(7)", CL_OK), 7);
  /* CuTe's Euclid loop in C arithmetic: the sign follows the remainders. */
  assert_int_equal(reduce_of(cl_tuple_gcd, "(4,-6)", CL_OK), -2);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(-4,6)", CL_OK), 2);
  /* folded from the right: gcd(6, gcd(-4, 10)) = gcd(6, 2) */
  assert_int_equal(reduce_of(cl_tuple_gcd, "(6,-4,10)", CL_OK), 2);
  reduce_of(cl_tuple_max, "()", CL_E_DOMAIN);
  reduce_of(cl_tuple_min, "(1,())", CL_E_DOMAIN);
  reduce_of(cl_tuple_gcd, "((),2)", CL_E_DOMAIN);
  reduce_of(cl_tuple_max, "(1,_)", CL_E_TYPE);
  reduce_of(cl_tuple_min, "(1,2:1)", CL_E_TYPE);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(-1,-9223372036854775808)", CL_OK), -1);
  assert_int_equal(reduce_of(cl_tuple_gcd, "(-9223372036854775808,0)", CL_OK), INT64_MIN);
  /* Every leaf counts: against a walk over the flattened tuple. */
  static const char *const forms[] = {"(%d,%d,%d)", "((%d,%d),%d)", "(%d,(%d,(%d)))"};
  for (size_t f = 0; f < COUNT_OF(forms); f++)
    for (int x = -3; x <= 3; x++)
      for (int y = -3; y <= 3; y++)
        for (int z = 0; z <= 4; z++) {
          int v[3] = {x, y, z};
          char text[64];
          fill_form(text, sizeof text, forms[f], v);
          int mx = x > y ? x : y, mn = x < y ? x : y;
          mx = mx > z ? mx : z;
          mn = mn < z ? mn : z;
          assert_int_equal(reduce_of(cl_tuple_max, text, CL_OK), mx);
          assert_int_equal(reduce_of(cl_tuple_min, text, CL_OK), mn);
          int64_t g = reduce_of(cl_tuple_gcd, text, CL_OK);
          /* |gcd| is the mathematical gcd, whatever the sign */
          int64_t a = llabs(x), b = llabs(y), c = z;
          while (b) { int64_t t = a % b; a = b; b = t; }
          b = c;
          while (b) { int64_t t = a % b; a = b; b = t; }
          assert_int_equal(llabs(g), a);
        }
  int64_t v;
  cl_tuple_t *t = tup("(1,2)");
  assert_int_equal(cl_tuple_max(NULL, &v), CL_E_NULL);
  assert_int_equal(cl_tuple_min(t, NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_gcd(NULL, &v), CL_E_NULL);
  cl_tuple_free(t);
}

static void test_product_each_like(void **state) {
  (void)state;
  expect_tuple1(cl_tuple_product_each, "((2,3),4,(5,(1,2)))", "(6,4,10)");
  expect_tuple1(cl_tuple_product_each, "6", "(6)");
  expect_tuple1(cl_tuple_product_each, "()", "()");
  expect_tuple1(cl_tuple_product_each, "(2,_,(3,_))", "(2,_,0)");
  expect_tuple1_fails(cl_tuple_product_each, "(2,3:1)", CL_E_TYPE);
  expect_tuple1_fails(cl_tuple_product_each, "(2,(4294967296,4294967296))", CL_E_OVERFLOW);
  expect_tuple2(cl_tuple_product_like, "((2,3),4)", "(0,0)", "(6,4)");
  expect_tuple2(cl_tuple_product_like, "((2,3),(4,5))", "((0,0),7)", "((2,3),20)");
  expect_tuple2(cl_tuple_product_like, "((2,3),4)", "9", "24");
  expect_tuple2_fails(cl_tuple_product_like, "(2,3)", "(0,0,0)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_product_like, "6", "(0)", CL_E_RANK);
  cl_tuple_t *r = (cl_tuple_t *)1, *a = tup("2");
  assert_int_equal(cl_tuple_product_each(NULL, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_tuple_product_like(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_product_like(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_product_like(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

static void test_round_up_filter_zeros(void **state) {
  (void)state;
  expect_tuple2(cl_tuple_round_up, "7", "4", "8");
  expect_tuple2(cl_tuple_round_up, "8", "4", "8");
  expect_tuple2(cl_tuple_round_up, "(7,9,3)", "(4,2)", "(8,10,3)");
  expect_tuple2(cl_tuple_round_up, "((5,6),9)", "((4,4),5)", "((8,8),10)");
  expect_tuple2_fails(cl_tuple_round_up, "(7,9)", "(4,2,1)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_round_up, "(7,9)", "4", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_round_up, "7", "(4)", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_round_up, "7", "0", CL_E_DOMAIN);
  expect_tuple2_fails(cl_tuple_round_up, "9223372036854775807", "2", CL_E_OVERFLOW);
  expect_tuple2_fails(cl_tuple_round_up, "(7,_)", "(2,2)", CL_E_TYPE);
  /* a multiple of b, at least a, less than a + b */
  for (int a = 0; a < 40; a++)
    for (int b = 1; b < 9; b++) {
      char ta[16], tb[16];
      snprintf(ta, sizeof ta, "%d", a);
      snprintf(tb, sizeof tb, "%d", b);
      cl_tuple_t *x = tup(ta), *y = tup(tb), *r = NULL;
      int64_t v;
      assert_int_equal(cl_tuple_round_up(x, y, &r), CL_OK);
      assert_int_equal(cl_tuple_value(r, &v), CL_OK);
      assert_true(v % b == 0 && v >= a && v < a + b);
      cl_tuple_free(x);
      cl_tuple_free(y);
      cl_tuple_free(r);
    }
  expect_tuple2(cl_tuple_filter_zeros, "(0,3)", "((2,5),7)", "((1,1),7)");
  expect_tuple2(cl_tuple_filter_zeros, "(0,3,(0,2))", "(0,3,(0,2))", "(1,3,(1,2))");
  expect_tuple2(cl_tuple_filter_zeros, "0", "((2,5),7)", "((1,1),1)");
  expect_tuple2(cl_tuple_filter_zeros, "4", "((2,5),7)", "((2,5),7)");
  expect_tuple2(cl_tuple_filter_zeros, "(0,_)", "(3,4)", "(1,4)");
  expect_tuple2_fails(cl_tuple_filter_zeros, "(0,1)", "5", CL_E_RANK);
  expect_tuple2_fails(cl_tuple_filter_zeros, "(0,1)", "(5,6,7)", CL_E_RANK);
  cl_tuple_t *r = (cl_tuple_t *)1, *a = tup("2");
  assert_int_equal(cl_tuple_filter_zeros(NULL, a, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_tuple_filter_zeros(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_tuple_round_up(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

static int evenly(const char *shape, const char *tiler, cl_status expect) {
  cl_tuple_t *s = tup(shape), *t = tup(tiler);
  int r = -1;
  cl_status st = cl_evenly_divides(s, t, &r);
  if (st != expect)
    fail_msg("evenly_divides(%s, %s) = %d, expected %d (%s)", shape, tiler, st, expect, cl_last_error());
  cl_tuple_free(s);
  cl_tuple_free(t);
  return r;
}

static void test_evenly_divides(void **state) {
  (void)state;
  assert_true(evenly("(4,6)", "2", CL_OK));      /* (2,6) tiles of 2 */
  assert_true(evenly("(4,6)", "8", CL_OK));      /* 4 then 2 of the 6 */
  assert_false(evenly("(4,6)", "5", CL_OK));
  assert_false(evenly("(4,6)", "3", CL_OK));     /* 3 does not split the 4 */
  evenly("(4,6)", "(_,2)", CL_E_DOMAIN);
  assert_true(evenly("(4,6)", "(4)", CL_OK));
  assert_false(evenly("(4,6)", "(4,4)", CL_OK));
  assert_false(evenly("(4,6)", "(4,3,2)", CL_OK)); /* more modes than the shape */
  assert_false(evenly("12", "(4,3)", CL_OK));
  assert_true(evenly("12", "((4))", CL_OK));
  assert_true(evenly("((2,4),6)", "((2,2),3)", CL_OK));
  assert_true(evenly("((2,4),6)", "(4,3)", CL_OK));
  assert_false(evenly("((2,4),6)", "(3,3)", CL_OK));
  assert_true(evenly("0", "3", CL_OK));
  evenly("6", "0", CL_E_DOMAIN);
  /* A layout in the tiler divides as CuTe's ceil_div(shape, L) =
   * shape(complement(L, shape)) (issue 23; these are CuTe's answers). */
  assert_true(evenly("(6,2)", "(2:1,2)", CL_OK));
  assert_true(evenly("(8,6)", "(2,3:2)", CL_OK));
  assert_false(evenly("(8,6)", "(2,4:1)", CL_OK));
  assert_true(evenly("(8,6)", "((2,2):(1,4),6)", CL_OK));
  assert_false(evenly("(8,6)", "(3:5,4:5)", CL_OK));
  assert_true(evenly("(8,(2,3))", "(2,3:2)", CL_OK));
  assert_true(evenly("(8,6)", "4:1", CL_OK)); /* a layout tiler is a leaf, not the tuple (4,1) */
  assert_false(evenly("8", "3:2", CL_OK));
  evenly("(8,6)", "(2:-1,1)", CL_E_DOMAIN);          /* complement's preconditions */
  evenly("(8,6)", "((2,2):(1,1),1)", CL_E_NOT_INJECTIVE);
  evenly("(6,_)", "2", CL_E_TYPE);
  /* For a flat shape and an integer tiler n, evenly_divides says that the
   * tile of n elements takes whole leaves, then one leaf part that n/rest
   * divides: every ceil_div step is exact. */
  for (int a = 1; a <= 6; a++)
    for (int b = 1; b <= 6; b++)
      for (int n = 1; n <= 40; n++) {
        char shape[32], tiler[16];
        snprintf(shape, sizeof shape, "(%d,%d)", a, b);
        snprintf(tiler, sizeof tiler, "%d", n);
        /* CuTe's fold: a is cut by n, then b by ceil(n/a) */
        int q0 = (a + n - 1) / n, rest = (n + a - 1) / a, q1 = (b + rest - 1) / rest;
        assert_int_equal(evenly(shape, tiler, CL_OK), a * b == n * q0 * q1);
      }
  int r;
  cl_tuple_t *a = tup("2");
  assert_int_equal(cl_evenly_divides(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_evenly_divides(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_evenly_divides(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

typedef cl_status (*tuple_order_fn)(const cl_tuple_t *, const cl_tuple_t *, int *);

static int less_of(tuple_order_fn f, const char *a, const char *b, cl_status expect) {
  cl_tuple_t *x = tup(a), *y = tup(b);
  int r = -1;
  cl_status s = f(x, y, &r);
  if (s != expect)
    fail_msg("compare(%s, %s) = %d, expected %d (%s)", a, b, s, expect, cl_last_error());
  cl_tuple_free(x);
  cl_tuple_free(y);
  return r;
}

static void test_comparisons(void **state) {
  (void)state;
  assert_true(less_of(cl_elem_less, "(2,3)", "(4,8)", CL_OK));
  assert_false(less_of(cl_elem_less, "(2,8)", "(4,8)", CL_OK));
  assert_true(less_of(cl_elem_less, "(1,(2,3))", "(2,(3,4))", CL_OK));
  assert_true(less_of(cl_elem_less, "(1)", "(2,0)", CL_OK));   /* a runs out first */
  assert_false(less_of(cl_elem_less, "(1,0)", "(2)", CL_OK));  /* b runs out first */
  assert_true(less_of(cl_elem_less, "()", "()", CL_OK));
  assert_true(less_of(cl_lex_less, "(1,2)", "(1,2,0)", CL_OK));
  assert_false(less_of(cl_lex_less, "(1,2)", "(1,2)", CL_OK));
  assert_true(less_of(cl_lex_less, "(0,9)", "(1,0)", CL_OK));
  assert_true(less_of(cl_colex_less, "(9,0)", "(0,1)", CL_OK));
  assert_true(less_of(cl_colex_less, "(3,1)", "(0,2)", CL_OK));
  assert_false(less_of(cl_colex_less, "(0,2)", "(3,1)", CL_OK));
  assert_true(less_of(cl_lex_less, "((1,2),3)", "((1,3),0)", CL_OK));
  assert_true(less_of(cl_lex_less, "-1", "0", CL_OK));
  less_of(cl_lex_less, "(1,(2))", "(1,2)", CL_E_RANK);
  less_of(cl_elem_less, "3", "(4)", CL_E_RANK);
  assert_true(less_of(cl_colex_less, "(_,1)", "(2,2)", CL_OK)); /* '_' is 0 */
  less_of(cl_colex_less, "(1:1,1)", "(2,2)", CL_E_TYPE);
  /* CuTe looks at every pair in the common prefix, even after the answer is known */
  less_of(cl_lex_less, "(0,(1))", "(1,1)", CL_E_RANK);
  /* Against the orders of pairs: lex is the order of (a0,a1) read left to
   * right, colex right to left, elem both below. */
  for (int a0 = 0; a0 < 3; a0++)
    for (int a1 = 0; a1 < 3; a1++)
      for (int b0 = 0; b0 < 3; b0++)
        for (int b1 = 0; b1 < 3; b1++) {
          char a[16], b[16];
          snprintf(a, sizeof a, "(%d,%d)", a0, a1);
          snprintf(b, sizeof b, "(%d,%d)", b0, b1);
          assert_int_equal(less_of(cl_lex_less, a, b, CL_OK), a0 * 3 + a1 < b0 * 3 + b1);
          assert_int_equal(less_of(cl_colex_less, a, b, CL_OK), a1 * 3 + a0 < b1 * 3 + b0);
          assert_int_equal(less_of(cl_elem_less, a, b, CL_OK), a0 < b0 && a1 < b1);
        }
  int r;
  cl_tuple_t *a = tup("2");
  assert_int_equal(cl_lex_less(NULL, a, &r), CL_E_NULL);
  assert_int_equal(cl_colex_less(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_elem_less(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

static void test_compact_strides_from(void **state) {
  (void)state;
  expect_tuple2(cl_compact_col_major_from, "(2,3)", "5", "(5,10)");
  expect_tuple2(cl_compact_row_major_from, "(2,3)", "5", "(15,5)");
  expect_tuple2(cl_compact_col_major_from, "(2,(3,1))", "(1,10)", "(1,(10,0))");
  expect_tuple2(cl_compact_row_major_from, "((2,3),4)", "(7,1)", "((21,7),1)");
  expect_tuple2(cl_compact_col_major_from, "1", "9", "0");
  expect_tuple2_fails(cl_compact_col_major_from, "(2,3)", "(1,2,3)", CL_E_RANK);
  expect_tuple2_fails(cl_compact_col_major_from, "6", "(1)", CL_E_RANK);
  expect_tuple2_fails(cl_compact_row_major_from, "(2,3)", "_", CL_E_TYPE);
  expect_tuple2_fails(cl_compact_col_major_from, "(2,4294967296)", "4294967296", CL_E_OVERFLOW);
  /* Starting at k scales the strides starting at 1 by k. */
  static const char *const shapes[] = {"(2,3)", "((2,1),4)", "(3,(2,2),5)", "7", "()"};
  for (size_t i = 0; i < COUNT_OF(shapes); i++)
    for (int k = -3; k <= 5; k++) {
      cl_tuple_t *s = tup(shapes[i]), *col = NULL, *from = NULL, *kt = NULL;
      assert_int_equal(cl_tuple_int(k, &kt), CL_OK);
      for (int major = 0; major < 2; major++) {
        assert_int_equal(major ? cl_compact_row_major(s, &col) : cl_compact_col_major(s, &col), CL_OK);
        assert_int_equal(major ? cl_compact_row_major_from(s, kt, &from) : cl_compact_col_major_from(s, kt, &from), CL_OK);
        /* leaf by leaf */
        cl_tuple_t *flat = NULL, *ff = NULL;
        assert_int_equal(cl_tuple_flatten(col, &flat), CL_OK);
        assert_int_equal(cl_tuple_flatten(from, &ff), CL_OK);
        int64_t n = cl_tuple_kind(flat) == CL_KIND_TUPLE ? cl_tuple_rank(flat) : 1;
        for (int64_t j = 0; j < n; j++) {
          cl_tuple_t *x = NULL, *y = NULL;
          int64_t vx, vy;
          assert_int_equal(cl_tuple_get(flat, &j, cl_tuple_kind(flat) == CL_KIND_TUPLE, &x), CL_OK);
          assert_int_equal(cl_tuple_get(ff, &j, cl_tuple_kind(ff) == CL_KIND_TUPLE, &y), CL_OK);
          assert_int_equal(cl_tuple_value(x, &vx), CL_OK);
          assert_int_equal(cl_tuple_value(y, &vy), CL_OK);
          assert_int_equal(vy, vx * k);
          cl_tuple_free(x);
          cl_tuple_free(y);
        }
        cl_tuple_free(flat);
        cl_tuple_free(ff);
        cl_tuple_free(col);
        cl_tuple_free(from);
      }
      cl_tuple_free(s);
      cl_tuple_free(kt);
    }
  cl_tuple_t *r = (cl_tuple_t *)1, *a = tup("2");
  assert_int_equal(cl_compact_col_major_from(NULL, a, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_compact_row_major_from(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_compact_row_major_from(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

/* The whitepaper's lattice of shapes: common_refinement is the least shape
 * that both coarsen (compatible(a, r) and compatible(b, r)), common_coarsening
 * the greatest that coarsens both. */
static void test_shape_lattice(void **state) {
  (void)state;
  expect_tuple2(cl_common_refinement, "30", "(2,15)", "(2,15)"); /* the whitepaper's examples */
  expect_tuple2(cl_common_refinement, "(2,15)", "(2,(3,5))", "(2,(3,5))");
  expect_tuple2(cl_common_refinement, "10", "(10)", "(10)");
  expect_tuple2(cl_common_refinement, "((2,3),20)", "(6,(4,5))", "((2,3),(4,5))");
  expect_tuple2_fails(cl_common_refinement, "(6,5)", "(2,15)", CL_E_DOMAIN);
  expect_tuple2_fails(cl_common_refinement, "(2,(3,5))", "((3,2),5)", CL_E_DOMAIN);
  expect_tuple2_fails(cl_common_refinement, "(2,3)", "(2,3,1)", CL_E_DOMAIN);
  expect_tuple2_fails(cl_common_refinement, "(2,_)", "(2,3)", CL_E_TYPE);
  expect_tuple2(cl_common_coarsening, "(2,15)", "(2,(3,5))", "(2,15)");
  expect_tuple2(cl_common_coarsening, "(4,(3,5))", "((2,2),15)", "(4,15)");
  expect_tuple2(cl_common_coarsening, "30", "(2,15)", "30");
  expect_tuple2(cl_common_coarsening, "(2,(3,5))", "((3,2),5)", "30");
  expect_tuple2(cl_common_coarsening, "(6,5)", "(2,15)", "30");
  expect_tuple2(cl_common_coarsening, "(2,3)", "(2,3,1)", "6");
  expect_tuple2(cl_common_coarsening, "((2,3),(4,5))", "((3,2),(4,5))", "(6,(4,5))");
  expect_tuple2_fails(cl_common_coarsening, "3", "4", CL_E_DOMAIN);
  expect_tuple2_fails(cl_common_coarsening, "7", "(2,3)", CL_E_DOMAIN);
  expect_tuple2_fails(cl_common_coarsening, "(2,2:1)", "(2,3)", CL_E_TYPE);
  /* Over pairs of small shapes: symmetric, bounds of both, reflexive. */
  static const char *const forms[] = {"%d", "(%d)", "(%d,%d)", "((%d,%d))", "(%d,(%d,%d))", "((%d,%d),%d)", "(%d,%d,%d)"};
  static char shapes[300][48];
  int n = 0;
  for (size_t f = 0; f < COUNT_OF(forms); f++) {
    int leaves = form_leaves(forms[f]), combos = 1;
    for (int k = 0; k < leaves; k++)
      combos *= 3;
    for (int c = 0; c < combos; c++) {
      int v[3], rest = c;
      for (int k = 0; k < leaves; k++, rest /= 3)
        v[k] = 1 + rest % 3 * (rest % 3); /* 1, 2, 5 */
      fill_form(shapes[n++], sizeof shapes[0], forms[f], v);
    }
  }
  int refined = 0, coarsened = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      cl_tuple_t *a = tup(shapes[i]), *b = tup(shapes[j]), *r = NULL, *q = NULL;
      int ok;
      cl_status s = cl_common_refinement(a, b, &r);
      assert_int_equal(cl_common_refinement(b, a, &q), s);
      if (s == CL_OK) {
        assert_true(cl_tuple_equal(r, q));
        assert_int_equal(cl_tuple_compatible(a, r, &ok), CL_OK);
        assert_true(ok);
        assert_int_equal(cl_tuple_compatible(b, r, &ok), CL_OK);
        assert_true(ok);
        refined++;
      } else {
        assert_int_equal(s, CL_E_DOMAIN);
      }
      cl_tuple_free(r);
      cl_tuple_free(q);
      r = q = NULL;
      s = cl_common_coarsening(a, b, &r);
      assert_int_equal(cl_common_coarsening(b, a, &q), s);
      int64_t sa, sb;
      cl_tuple_product(a, &sa);
      cl_tuple_product(b, &sb);
      assert_int_equal(s == CL_OK, sa == sb);
      if (s == CL_OK) {
        assert_true(cl_tuple_equal(r, q));
        assert_int_equal(cl_tuple_compatible(r, a, &ok), CL_OK);
        assert_true(ok);
        assert_int_equal(cl_tuple_compatible(r, b, &ok), CL_OK);
        assert_true(ok);
        coarsened++;
      }
      if (i == j) {
        assert_true(cl_tuple_equal(r, a));
        cl_tuple_t *self = NULL;
        assert_int_equal(cl_common_refinement(a, a, &self), CL_OK);
        assert_true(cl_tuple_equal(self, a));
        cl_tuple_free(self);
      }
      cl_tuple_free(r);
      cl_tuple_free(q);
      cl_tuple_free(a);
      cl_tuple_free(b);
    }
  printf("[ lattice  ] %d refinements, %d coarsenings\n", refined, coarsened);
  assert_true(refined > 250 && coarsened > 1000);
  cl_tuple_t *r = (cl_tuple_t *)1, *a = tup("2");
  assert_int_equal(cl_common_refinement(NULL, a, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_common_coarsening(a, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_common_coarsening(a, a, NULL), CL_E_NULL);
  cl_tuple_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden_answers_of_cute),
    cmocka_unit_test(test_constructors),
    cmocka_unit_test(test_constructor_errors),
    cmocka_unit_test(test_rank_limit),
    cmocka_unit_test(test_rank_depth_get),
    cmocka_unit_test(test_reductions),
    cmocka_unit_test(test_flatten_unflatten),
    cmocka_unit_test(test_profiles),
    cmocka_unit_test(test_divisions),
    cmocka_unit_test(test_compact_strides),
    cmocka_unit_test(test_coordinates),
    cmocka_unit_test(test_strided_and_crd2crd),
    cmocka_unit_test(test_coordinate_properties),
    cmocka_unit_test(test_max_min_gcd),
    cmocka_unit_test(test_product_each_like),
    cmocka_unit_test(test_round_up_filter_zeros),
    cmocka_unit_test(test_evenly_divides),
    cmocka_unit_test(test_comparisons),
    cmocka_unit_test(test_compact_strides_from),
    cmocka_unit_test(test_shape_lattice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
