/* SPDX-License-Identifier: BSD-3-Clause */
/* test_layout.c: layout handles (layout.h): construction, queries,
 * evaluation, slicing and rearranging modes; CuTe's answers for each, error
 * paths, and properties checked exhaustively on generated small layouts. */
#include "test_util.h"

/* ------------------------------------------------------------------ golden
 * Answers of CuTe C++ with every integer static (Int<N>); NULL means CuTe
 * rejects the call at compile time.  fn names the overload: make_layout_s is
 * make_layout(shape), make_layout_ss make_layout(shape, stride), make_layout_L
 * make_layout(layout), make_layout_LL make_layout(layout, layout). */
typedef struct golden {
  const char *fn, *a, *b, *c, *expected;
} golden;

static const golden goldens[] = {
  {"shape", "8:1", NULL, NULL, "8"},
  {"shape", "8:2", NULL, NULL, "8"},
  {"shape", "1:0", NULL, NULL, "1"},
  {"shape", "4:0", NULL, NULL, "4"},
  {"shape", "(8):(1)", NULL, NULL, "(8)"},
  {"shape", "(2,3):(1,2)", NULL, NULL, "(2,3)"},
  {"shape", "(2,3):(3,1)", NULL, NULL, "(2,3)"},
  {"shape", "(2,(2,2)):(4,(2,1))", NULL, NULL, "(2,(2,2))"},
  {"shape", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "((2,2),(2,2))"},
  {"shape", "(4,2):(-1,4)", NULL, NULL, "(4,2)"},
  {"shape", "(3,4):(0,1)", NULL, NULL, "(3,4)"},
  {"shape", "(2,1,3):(1,0,2)", NULL, NULL, "(2,1,3)"},
  {"shape", "(4,4):(4,1)", NULL, NULL, "(4,4)"},
  {"shape", "((2,3),4):((1,2),6)", NULL, NULL, "((2,3),4)"},
  {"shape", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "(2,(3,(2,2)))"},
  {"shape", "(1,1):(0,0)", NULL, NULL, "(1,1)"},
  {"shape", "():()", NULL, NULL, "()"},
  {"shape", "((4)):((2))", NULL, NULL, "((4))"},
  {"shape", "(2,3,4):(12,1,3)", NULL, NULL, "(2,3,4)"},
  {"shape", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "(2,2,2,2)"},
  {"shape", "((2,2),3):((0,6),2)", NULL, NULL, "((2,2),3)"},
  {"shape", "(3,2):(2,2)", NULL, NULL, "(3,2)"},
  {"stride", "8:1", NULL, NULL, "1"},
  {"stride", "8:2", NULL, NULL, "2"},
  {"stride", "1:0", NULL, NULL, "0"},
  {"stride", "4:0", NULL, NULL, "0"},
  {"stride", "(8):(1)", NULL, NULL, "(1)"},
  {"stride", "(2,3):(1,2)", NULL, NULL, "(1,2)"},
  {"stride", "(2,3):(3,1)", NULL, NULL, "(3,1)"},
  {"stride", "(2,(2,2)):(4,(2,1))", NULL, NULL, "(4,(2,1))"},
  {"stride", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "((1,4),(2,8))"},
  {"stride", "(4,2):(-1,4)", NULL, NULL, "(-1,4)"},
  {"stride", "(3,4):(0,1)", NULL, NULL, "(0,1)"},
  {"stride", "(2,1,3):(1,0,2)", NULL, NULL, "(1,0,2)"},
  {"stride", "(4,4):(4,1)", NULL, NULL, "(4,1)"},
  {"stride", "((2,3),4):((1,2),6)", NULL, NULL, "((1,2),6)"},
  {"stride", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "(1,(2,(6,12)))"},
  {"stride", "(1,1):(0,0)", NULL, NULL, "(0,0)"},
  {"stride", "():()", NULL, NULL, "()"},
  {"stride", "((4)):((2))", NULL, NULL, "((2))"},
  {"stride", "(2,3,4):(12,1,3)", NULL, NULL, "(12,1,3)"},
  {"stride", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "(0,2,4,1)"},
  {"stride", "((2,2),3):((0,6),2)", NULL, NULL, "((0,6),2)"},
  {"stride", "(3,2):(2,2)", NULL, NULL, "(2,2)"},
  {"size", "8:1", NULL, NULL, "8"},
  {"size", "8:2", NULL, NULL, "8"},
  {"size", "1:0", NULL, NULL, "1"},
  {"size", "4:0", NULL, NULL, "4"},
  {"size", "(8):(1)", NULL, NULL, "8"},
  {"size", "(2,3):(1,2)", NULL, NULL, "6"},
  {"size", "(2,3):(3,1)", NULL, NULL, "6"},
  {"size", "(2,(2,2)):(4,(2,1))", NULL, NULL, "8"},
  {"size", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "16"},
  {"size", "(4,2):(-1,4)", NULL, NULL, "8"},
  {"size", "(3,4):(0,1)", NULL, NULL, "12"},
  {"size", "(2,1,3):(1,0,2)", NULL, NULL, "6"},
  {"size", "(4,4):(4,1)", NULL, NULL, "16"},
  {"size", "((2,3),4):((1,2),6)", NULL, NULL, "24"},
  {"size", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "24"},
  {"size", "(1,1):(0,0)", NULL, NULL, "1"},
  {"size", "():()", NULL, NULL, "1"},
  {"size", "((4)):((2))", NULL, NULL, "4"},
  {"size", "(2,3,4):(12,1,3)", NULL, NULL, "24"},
  {"size", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "16"},
  {"size", "((2,2),3):((0,6),2)", NULL, NULL, "12"},
  {"size", "(3,2):(2,2)", NULL, NULL, "6"},
  {"cosize", "8:1", NULL, NULL, "8"},
  {"cosize", "8:2", NULL, NULL, "15"},
  {"cosize", "1:0", NULL, NULL, "1"},
  {"cosize", "4:0", NULL, NULL, "1"},
  {"cosize", "(8):(1)", NULL, NULL, "8"},
  {"cosize", "(2,3):(1,2)", NULL, NULL, "6"},
  {"cosize", "(2,3):(3,1)", NULL, NULL, "6"},
  {"cosize", "(2,(2,2)):(4,(2,1))", NULL, NULL, "8"},
  {"cosize", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "16"},
  {"cosize", "(4,2):(-1,4)", NULL, NULL, "8"},
  {"cosize", "(3,4):(0,1)", NULL, NULL, "4"},
  {"cosize", "(2,1,3):(1,0,2)", NULL, NULL, "6"},
  {"cosize", "(4,4):(4,1)", NULL, NULL, "16"},
  {"cosize", "((2,3),4):((1,2),6)", NULL, NULL, "24"},
  {"cosize", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "24"},
  {"cosize", "(1,1):(0,0)", NULL, NULL, "1"},
  {"cosize", "():()", NULL, NULL, "1"},
  {"cosize", "((4)):((2))", NULL, NULL, "7"},
  {"cosize", "(2,3,4):(12,1,3)", NULL, NULL, "24"},
  {"cosize", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "8"},
  {"cosize", "((2,2),3):((0,6),2)", NULL, NULL, "11"},
  {"cosize", "(3,2):(2,2)", NULL, NULL, "7"},
  {"coshape", "8:1", NULL, NULL, "8"},
  {"coshape", "8:2", NULL, NULL, "15"},
  {"coshape", "1:0", NULL, NULL, "1"},
  {"coshape", "4:0", NULL, NULL, "1"},
  {"coshape", "(8):(1)", NULL, NULL, "8"},
  {"coshape", "(2,3):(1,2)", NULL, NULL, "6"},
  {"coshape", "(2,3):(3,1)", NULL, NULL, "6"},
  {"coshape", "(2,(2,2)):(4,(2,1))", NULL, NULL, "8"},
  {"coshape", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "16"},
  {"coshape", "(4,2):(-1,4)", NULL, NULL, "8"},
  {"coshape", "(3,4):(0,1)", NULL, NULL, "4"},
  {"coshape", "(2,1,3):(1,0,2)", NULL, NULL, "6"},
  {"coshape", "(4,4):(4,1)", NULL, NULL, "16"},
  {"coshape", "((2,3),4):((1,2),6)", NULL, NULL, "24"},
  {"coshape", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "24"},
  {"coshape", "(1,1):(0,0)", NULL, NULL, "1"},
  {"coshape", "():()", NULL, NULL, "1"},
  {"coshape", "((4)):((2))", NULL, NULL, "7"},
  {"coshape", "(2,3,4):(12,1,3)", NULL, NULL, "24"},
  {"coshape", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "8"},
  {"coshape", "((2,2),3):((0,6),2)", NULL, NULL, "11"},
  {"coshape", "(3,2):(2,2)", NULL, NULL, "7"},
  {"rank", "8:1", NULL, NULL, "1"},
  {"rank", "8:2", NULL, NULL, "1"},
  {"rank", "1:0", NULL, NULL, "1"},
  {"rank", "4:0", NULL, NULL, "1"},
  {"rank", "(8):(1)", NULL, NULL, "1"},
  {"rank", "(2,3):(1,2)", NULL, NULL, "2"},
  {"rank", "(2,3):(3,1)", NULL, NULL, "2"},
  {"rank", "(2,(2,2)):(4,(2,1))", NULL, NULL, "2"},
  {"rank", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "2"},
  {"rank", "(4,2):(-1,4)", NULL, NULL, "2"},
  {"rank", "(3,4):(0,1)", NULL, NULL, "2"},
  {"rank", "(2,1,3):(1,0,2)", NULL, NULL, "3"},
  {"rank", "(4,4):(4,1)", NULL, NULL, "2"},
  {"rank", "((2,3),4):((1,2),6)", NULL, NULL, "2"},
  {"rank", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "2"},
  {"rank", "(1,1):(0,0)", NULL, NULL, "2"},
  {"rank", "():()", NULL, NULL, "0"},
  {"rank", "((4)):((2))", NULL, NULL, "1"},
  {"rank", "(2,3,4):(12,1,3)", NULL, NULL, "3"},
  {"rank", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "4"},
  {"rank", "((2,2),3):((0,6),2)", NULL, NULL, "2"},
  {"rank", "(3,2):(2,2)", NULL, NULL, "2"},
  {"depth", "8:1", NULL, NULL, "0"},
  {"depth", "8:2", NULL, NULL, "0"},
  {"depth", "1:0", NULL, NULL, "0"},
  {"depth", "4:0", NULL, NULL, "0"},
  {"depth", "(8):(1)", NULL, NULL, "1"},
  {"depth", "(2,3):(1,2)", NULL, NULL, "1"},
  {"depth", "(2,3):(3,1)", NULL, NULL, "1"},
  {"depth", "(2,(2,2)):(4,(2,1))", NULL, NULL, "2"},
  {"depth", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "2"},
  {"depth", "(4,2):(-1,4)", NULL, NULL, "1"},
  {"depth", "(3,4):(0,1)", NULL, NULL, "1"},
  {"depth", "(2,1,3):(1,0,2)", NULL, NULL, "1"},
  {"depth", "(4,4):(4,1)", NULL, NULL, "1"},
  {"depth", "((2,3),4):((1,2),6)", NULL, NULL, "2"},
  {"depth", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "3"},
  {"depth", "(1,1):(0,0)", NULL, NULL, "1"},
  {"depth", "((4)):((2))", NULL, NULL, "2"},
  {"depth", "(2,3,4):(12,1,3)", NULL, NULL, "1"},
  {"depth", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "1"},
  {"depth", "((2,2),3):((0,6),2)", NULL, NULL, "2"},
  {"depth", "(3,2):(2,2)", NULL, NULL, "1"},
  {"depth", "(4,(2,3)):(-6,(-1,8))", NULL, NULL, "2"},
  {"depth", "():()", NULL, NULL, NULL},
  {"flatten", "8:1", NULL, NULL, "8:1"},
  {"flatten", "8:2", NULL, NULL, "8:2"},
  {"flatten", "1:0", NULL, NULL, "1:0"},
  {"flatten", "4:0", NULL, NULL, "4:0"},
  {"flatten", "(8):(1)", NULL, NULL, "(8):(1)"},
  {"flatten", "(2,3):(1,2)", NULL, NULL, "(2,3):(1,2)"},
  {"flatten", "(2,3):(3,1)", NULL, NULL, "(2,3):(3,1)"},
  {"flatten", "(2,(2,2)):(4,(2,1))", NULL, NULL, "(2,2,2):(4,2,1)"},
  {"flatten", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "(2,2,2,2):(1,4,2,8)"},
  {"flatten", "(4,2):(-1,4)", NULL, NULL, "(4,2):(-1,4)"},
  {"flatten", "(3,4):(0,1)", NULL, NULL, "(3,4):(0,1)"},
  {"flatten", "(2,1,3):(1,0,2)", NULL, NULL, "(2,1,3):(1,0,2)"},
  {"flatten", "(4,4):(4,1)", NULL, NULL, "(4,4):(4,1)"},
  {"flatten", "((2,3),4):((1,2),6)", NULL, NULL, "(2,3,4):(1,2,6)"},
  {"flatten", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "(2,3,2,2):(1,2,6,12)"},
  {"flatten", "(1,1):(0,0)", NULL, NULL, "(1,1):(0,0)"},
  {"flatten", "():()", NULL, NULL, "():()"},
  {"flatten", "((4)):((2))", NULL, NULL, "(4):(2)"},
  {"flatten", "(2,3,4):(12,1,3)", NULL, NULL, "(2,3,4):(12,1,3)"},
  {"flatten", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "(2,2,2,2):(0,2,4,1)"},
  {"flatten", "((2,2),3):((0,6),2)", NULL, NULL, "(2,2,3):(0,6,2)"},
  {"flatten", "(3,2):(2,2)", NULL, NULL, "(3,2):(2,2)"},
  {"zip", "8:1", NULL, NULL, "8:1"},
  {"zip", "8:2", NULL, NULL, "8:2"},
  {"zip", "1:0", NULL, NULL, "1:0"},
  {"zip", "4:0", NULL, NULL, "4:0"},
  {"zip", "(8):(1)", NULL, NULL, "((8)):((1))"},
  {"zip", "(2,3):(1,2)", NULL, NULL, "((2,3)):((1,2))"},
  {"zip", "(2,3):(3,1)", NULL, NULL, "((2,3)):((3,1))"},
  {"zip", "(2,(2,2)):(4,(2,1))", NULL, NULL, "((2,(2,2))):((4,(2,1)))"},
  {"zip", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "((2,2),(2,2)):((1,2),(4,8))"},
  {"zip", "(4,2):(-1,4)", NULL, NULL, "((4,2)):((-1,4))"},
  {"zip", "(3,4):(0,1)", NULL, NULL, "((3,4)):((0,1))"},
  {"zip", "(2,1,3):(1,0,2)", NULL, NULL, "((2,1,3)):((1,0,2))"},
  {"zip", "(4,4):(4,1)", NULL, NULL, "((4,4)):((4,1))"},
  {"zip", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "((2,(3,(2,2)))):((1,(2,(6,12))))"},
  {"zip", "(1,1):(0,0)", NULL, NULL, "((1,1)):((0,0))"},
  {"zip", "((4)):((2))", NULL, NULL, "((4)):((2))"},
  {"zip", "(2,3,4):(12,1,3)", NULL, NULL, "((2,3,4)):((12,1,3))"},
  {"zip", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "((2,2,2,2)):((0,2,4,1))"},
  {"zip", "(3,2):(2,2)", NULL, NULL, "((3,2)):((2,2))"},
  {"zip", "(4,(2,3)):(-6,(-1,8))", NULL, NULL, "((4,(2,3))):((-6,(-1,8)))"},
  {"zip", "((2,3),(4,5)):((1,2),(6,24))", NULL, NULL, "((2,4),(3,5)):((1,6),(2,24))"},
  {"zip", "((2,3),(4,5),(6,7)):((1,2),(3,4),(5,6))", NULL, NULL, "((2,4,6),(3,5,7)):((1,3,5),(2,4,6))"},
  {"zip", "((2,3),4):((1,2),6)", NULL, NULL, NULL},
  {"zip", "():()", NULL, NULL, NULL},
  {"zip", "((2,2),3):((0,6),2)", NULL, NULL, NULL},
  {"zip", "((2,3),4):((1,2),6)", NULL, NULL, NULL},
  {"zip", "((2,3),(4,5,6)):((1,2),(3,4,5))", NULL, NULL, NULL},
  {"make_layout_L", "8:1", NULL, NULL, "(8):(1)"},
  {"make_layout_L", "8:2", NULL, NULL, "(8):(2)"},
  {"make_layout_L", "1:0", NULL, NULL, "(1):(0)"},
  {"make_layout_L", "4:0", NULL, NULL, "(4):(0)"},
  {"make_layout_L", "(8):(1)", NULL, NULL, "((8)):((1))"},
  {"make_layout_L", "(2,3):(1,2)", NULL, NULL, "((2,3)):((1,2))"},
  {"make_layout_L", "(2,3):(3,1)", NULL, NULL, "((2,3)):((3,1))"},
  {"make_layout_L", "(2,(2,2)):(4,(2,1))", NULL, NULL, "((2,(2,2))):((4,(2,1)))"},
  {"make_layout_L", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "(((2,2),(2,2))):(((1,4),(2,8)))"},
  {"make_layout_L", "(4,2):(-1,4)", NULL, NULL, "((4,2)):((-1,4))"},
  {"make_layout_L", "(3,4):(0,1)", NULL, NULL, "((3,4)):((0,1))"},
  {"make_layout_L", "(2,1,3):(1,0,2)", NULL, NULL, "((2,1,3)):((1,0,2))"},
  {"make_layout_L", "(4,4):(4,1)", NULL, NULL, "((4,4)):((4,1))"},
  {"make_layout_L", "((2,3),4):((1,2),6)", NULL, NULL, "(((2,3),4)):(((1,2),6))"},
  {"make_layout_L", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "((2,(3,(2,2)))):((1,(2,(6,12))))"},
  {"make_layout_L", "(1,1):(0,0)", NULL, NULL, "((1,1)):((0,0))"},
  {"make_layout_L", "():()", NULL, NULL, "(()):(())"},
  {"make_layout_L", "((4)):((2))", NULL, NULL, "(((4))):(((2)))"},
  {"make_layout_L", "(2,3,4):(12,1,3)", NULL, NULL, "((2,3,4)):((12,1,3))"},
  {"make_layout_L", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "((2,2,2,2)):((0,2,4,1))"},
  {"make_layout_L", "((2,2),3):((0,6),2)", NULL, NULL, "(((2,2),3)):(((0,6),2))"},
  {"make_layout_L", "(3,2):(2,2)", NULL, NULL, "((3,2)):((2,2))"},
  {"make_layout_s", "0", NULL, NULL, "0:1"},
  {"make_layout_s", "1", NULL, NULL, "1:0"},
  {"make_layout_s", "3", NULL, NULL, "3:1"},
  {"make_layout_s", "8", NULL, NULL, "8:1"},
  {"make_layout_s", "-2", NULL, NULL, NULL}, /* CuTe: -2:1 */
  {"make_layout_s", "()", NULL, NULL, "():()"},
  {"make_layout_s", "(8)", NULL, NULL, "(8):(1)"},
  {"make_layout_s", "(2,3)", NULL, NULL, "(2,3):(1,2)"},
  {"make_layout_s", "(2,(2,2))", NULL, NULL, "(2,(2,2)):(1,(2,4))"},
  {"make_layout_s", "((2,3),4)", NULL, NULL, "((2,3),4):((1,2),6)"},
  {"make_layout_s", "(1,4)", NULL, NULL, "(1,4):(0,1)"},
  {"make_layout_s", "(4,1)", NULL, NULL, "(4,1):(1,0)"},
  {"make_layout_s", "(2,1,3)", NULL, NULL, "(2,1,3):(1,0,2)"},
  {"make_layout_s", "((2,2),(3,1))", NULL, NULL, "((2,2),(3,1)):((1,2),(4,0))"},
  {"make_layout_s", "(3,(2,(2,2)))", NULL, NULL, "(3,(2,(2,2))):(1,(3,(6,12)))"},
  {"make_layout_s", "((1))", NULL, NULL, "((1)):((0))"},
  {"make_layout_s", "(((4)))", NULL, NULL, "(((4))):(((1)))"},
  {"make_layout_s", "(0,3)", NULL, NULL, "(0,3):(1,0)"},
  {"make_layout_s", "(2,-3)", NULL, NULL, NULL},
  {"make_layout_s", "((),2)", NULL, NULL, "((),2):((),1)"},
  {"make_layout_s", "(6,(4,10))", NULL, NULL, "(6,(4,10)):(1,(6,24))"},
  {"make_layout_s", "(2,(3,(4,(5,(6,(7,8))))))", NULL, NULL, "(2,(3,(4,(5,(6,(7,8)))))):(1,(2,(6,(24,(120,(720,5040))))))"},
  {"make_layout_LayoutLeft", "1", "LayoutLeft", NULL, "1:0"},
  {"make_layout_LayoutLeft", "3", "LayoutLeft", NULL, "3:1"},
  {"make_layout_LayoutLeft", "8", "LayoutLeft", NULL, "8:1"},
  {"make_layout_LayoutLeft", "()", "LayoutLeft", NULL, "():()"},
  {"make_layout_LayoutLeft", "(8)", "LayoutLeft", NULL, "(8):(1)"},
  {"make_layout_LayoutLeft", "(2,3)", "LayoutLeft", NULL, "(2,3):(1,2)"},
  {"make_layout_LayoutLeft", "(2,(2,2))", "LayoutLeft", NULL, "(2,(2,2)):(1,(2,4))"},
  {"make_layout_LayoutLeft", "((2,3),4)", "LayoutLeft", NULL, "((2,3),4):((1,2),6)"},
  {"make_layout_LayoutLeft", "(1,4)", "LayoutLeft", NULL, "(1,4):(0,1)"},
  {"make_layout_LayoutLeft", "(4,1)", "LayoutLeft", NULL, "(4,1):(1,0)"},
  {"make_layout_LayoutLeft", "(2,1,3)", "LayoutLeft", NULL, "(2,1,3):(1,0,2)"},
  {"make_layout_LayoutLeft", "((2,2),(3,1))", "LayoutLeft", NULL, "((2,2),(3,1)):((1,2),(4,0))"},
  {"make_layout_LayoutLeft", "(3,(2,(2,2)))", "LayoutLeft", NULL, "(3,(2,(2,2))):(1,(3,(6,12)))"},
  {"make_layout_LayoutLeft", "((1))", "LayoutLeft", NULL, "((1)):((0))"},
  {"make_layout_LayoutLeft", "(((4)))", "LayoutLeft", NULL, "(((4))):(((1)))"},
  {"make_layout_LayoutLeft", "(0,3)", "LayoutLeft", NULL, "(0,3):(1,0)"},
  {"make_layout_LayoutLeft", "(2,-3)", "LayoutLeft", NULL, NULL},
  {"make_layout_LayoutLeft", "((),2)", "LayoutLeft", NULL, "((),2):((),1)"},
  {"make_layout_LayoutLeft", "(6,(4,10))", "LayoutLeft", NULL, "(6,(4,10)):(1,(6,24))"},
  {"make_layout_LayoutRight", "1", "LayoutRight", NULL, "1:0"},
  {"make_layout_LayoutRight", "3", "LayoutRight", NULL, "3:1"},
  {"make_layout_LayoutRight", "8", "LayoutRight", NULL, "8:1"},
  {"make_layout_LayoutRight", "()", "LayoutRight", NULL, "():()"},
  {"make_layout_LayoutRight", "(8)", "LayoutRight", NULL, "(8):(1)"},
  {"make_layout_LayoutRight", "(2,3)", "LayoutRight", NULL, "(2,3):(3,1)"},
  {"make_layout_LayoutRight", "(2,(2,2))", "LayoutRight", NULL, "(2,(2,2)):(4,(2,1))"},
  {"make_layout_LayoutRight", "((2,3),4)", "LayoutRight", NULL, "((2,3),4):((12,4),1)"},
  {"make_layout_LayoutRight", "(1,4)", "LayoutRight", NULL, "(1,4):(0,1)"},
  {"make_layout_LayoutRight", "(4,1)", "LayoutRight", NULL, "(4,1):(1,0)"},
  {"make_layout_LayoutRight", "(2,1,3)", "LayoutRight", NULL, "(2,1,3):(3,0,1)"},
  {"make_layout_LayoutRight", "((2,2),(3,1))", "LayoutRight", NULL, "((2,2),(3,1)):((6,3),(1,0))"},
  {"make_layout_LayoutRight", "(3,(2,(2,2)))", "LayoutRight", NULL, "(3,(2,(2,2))):(8,(4,(2,1)))"},
  {"make_layout_LayoutRight", "((1))", "LayoutRight", NULL, "((1)):((0))"},
  {"make_layout_LayoutRight", "(((4)))", "LayoutRight", NULL, "(((4))):(((1)))"},
  {"make_layout_LayoutRight", "(0,3)", "LayoutRight", NULL, "(0,3):(3,1)"},
  {"make_layout_LayoutRight", "(2,-3)", "LayoutRight", NULL, NULL},
  {"make_layout_LayoutRight", "((),2)", "LayoutRight", NULL, "((),2):((),1)"},
  {"make_layout_LayoutRight", "(6,(4,10))", "LayoutRight", NULL, "(6,(4,10)):(40,(10,1))"},
  {"make_layout_LayoutRight", "(2,(3,(4,(5,(6,(7,8))))))", "LayoutRight", NULL, "(2,(3,(4,(5,(6,(7,8)))))):(20160,(6720,(1680,(336,(56,(8,1))))))"},
  {"make_layout_LayoutRight", "((((((((1))))))))", "LayoutRight", NULL, "((((((((1)))))))):((((((((0))))))))"},
  {"make_layout_LayoutRight", "(1,(1,(1,(1,1))))", "LayoutRight", NULL, "(1,(1,(1,(1,1)))):(0,(0,(0,(0,0))))"},
  {"make_layout_LL", "8:1", "8:1", NULL, "(8,8):(1,1)"},
  {"make_layout_LL", "8:1", "1:0", NULL, "(8,1):(1,0)"},
  {"make_layout_LL", "8:1", "(8):(1)", NULL, "(8,(8)):(1,(1))"},
  {"make_layout_LL", "8:1", "(2,3):(3,1)", NULL, "(8,(2,3)):(1,(3,1))"},
  {"make_layout_LL", "8:2", "8:1", NULL, "(8,8):(2,1)"},
  {"make_layout_LL", "8:2", "1:0", NULL, "(8,1):(2,0)"},
  {"make_layout_LL", "8:2", "(8):(1)", NULL, "(8,(8)):(2,(1))"},
  {"make_layout_LL", "8:2", "(2,3):(3,1)", NULL, "(8,(2,3)):(2,(3,1))"},
  {"make_layout_LL", "1:0", "8:1", NULL, "(1,8):(0,1)"},
  {"make_layout_LL", "1:0", "1:0", NULL, "(1,1):(0,0)"},
  {"make_layout_LL", "1:0", "(8):(1)", NULL, "(1,(8)):(0,(1))"},
  {"make_layout_LL", "1:0", "(2,3):(3,1)", NULL, "(1,(2,3)):(0,(3,1))"},
  {"make_layout_LL", "4:0", "8:1", NULL, "(4,8):(0,1)"},
  {"make_layout_LL", "4:0", "1:0", NULL, "(4,1):(0,0)"},
  {"make_layout_LL", "4:0", "(8):(1)", NULL, "(4,(8)):(0,(1))"},
  {"make_layout_LL", "4:0", "(2,3):(3,1)", NULL, "(4,(2,3)):(0,(3,1))"},
  {"make_layout_LL", "(8):(1)", "8:1", NULL, "((8),8):((1),1)"},
  {"make_layout_LL", "(8):(1)", "1:0", NULL, "((8),1):((1),0)"},
  {"make_layout_LL", "(8):(1)", "(8):(1)", NULL, "((8),(8)):((1),(1))"},
  {"make_layout_LL", "(8):(1)", "(2,3):(3,1)", NULL, "((8),(2,3)):((1),(3,1))"},
  {"make_layout_LL", "(2,3):(1,2)", "8:1", NULL, "((2,3),8):((1,2),1)"},
  {"make_layout_LL", "(2,3):(1,2)", "1:0", NULL, "((2,3),1):((1,2),0)"},
  {"make_ordered_layout", "1", "0", NULL, "1:0"},
  {"make_ordered_layout", "()", "0", NULL, "():()"},
  {"make_ordered_layout", "(2,3)", "1", NULL, "(2,3):(1,2)"},
  {"make_ordered_layout", "(2,(2,2))", "1", NULL, "(2,(2,2)):(1,(2,4))"},
  {"make_ordered_layout", "(2,(2,2))", "(0,(1,1))", NULL, "(2,(2,2)):(1,(2,2))"},
  {"make_ordered_layout", "((2,3),4)", "(0,0)", NULL, "((2,3),4):((1,2),1)"},
  {"make_ordered_layout", "(1,4)", "(1,0)", NULL, "(1,4):(0,1)"},
  {"make_ordered_layout", "(4,1)", "(1,0)", NULL, "(4,1):(1,0)"},
  {"make_ordered_layout", "(2,1,3)", "(2,1,0)", NULL, "(2,1,3):(3,0,1)"},
  {"make_ordered_layout", "((2,2),(3,1))", "(0,1)", NULL, "((2,2),(3,1)):((1,2),(4,0))"},
  {"make_ordered_layout", "((2,2),(3,1))", "(0,(1,1))", NULL, "((2,2),(3,1)):((1,2),(4,0))"},
  {"make_ordered_layout", "(3,(2,(2,2)))", "(0,1)", NULL, "(3,(2,(2,2))):(1,(3,(6,12)))"},
  {"make_ordered_layout", "((1))", "0", NULL, "((1)):((0))"},
  {"make_ordered_layout", "(0,3)", "0", NULL, "(0,3):(1,0)"},
  {"make_ordered_layout", "(2,-3)", "0", NULL, NULL}, /* CuTe: (2,-3):(1,2) */
  {"make_ordered_layout", "((),2)", "0", NULL, "((),2):((),1)"},
  {"make_ordered_layout", "(6,(4,10))", "0", NULL, "(6,(4,10)):(1,(6,24))"},
  {"make_ordered_layout", "(6,(4,10))", "(2,(1,0))", NULL, "(6,(4,10)):(40,(10,1))"},
  {"make_ordered_layout", "(2,3,4)", "(1,1,0)", NULL, "(2,3,4):(4,4,1)"},
  {"make_ordered_layout", "(2,3,4)", "(2,2,2)", NULL, "(2,3,4):(1,1,1)"},
  {"make_ordered_layout", "((2,3),4)", "((0,0),0)", NULL, "((2,3),4):((1,1),1)"},
  {"make_ordered_layout", "((2,2),(3,1))", "(1,(0,0))", NULL, "((2,2),(3,1)):((3,6),(1,0))"},
  {"make_ordered_layout", "1", "(0)", NULL, NULL},
  {"make_ordered_layout", "8", "(0,0)", NULL, NULL},
  {"make_ordered_layout", "(8)", "((1,0),2)", NULL, NULL},
  {"make_ordered_layout", "((2,3),4)", "(0,(1,1))", NULL, NULL},
  {"make_ordered_layout", "(2,1,3)", "((2,1),0)", NULL, NULL},
  {"make_ordered_layout", "(((4)))", "((1,0),2)", NULL, NULL},
  {"make_ordered_layout", "((),2)", "((1,0),2)", NULL, NULL},
  {"make_ordered_layout", "((2,2),(3,1))", "(1,0,1)", NULL, NULL},
  {"make_layout_like", "8:1", NULL, NULL, "8:1"},
  {"make_layout_like", "1:0", NULL, NULL, "1:0"},
  {"make_layout_like", "(8):(1)", NULL, NULL, "(8):(1)"},
  {"make_layout_like", "(2,3):(3,1)", NULL, NULL, "(2,3):(3,1)"},
  {"make_layout_like", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "((2,2),(2,2)):((1,4),(2,8))"},
  {"make_layout_like", "(3,4):(0,1)", NULL, NULL, "(3,4):(0,1)"},
  {"make_layout_like", "(4,4):(4,1)", NULL, NULL, "(4,4):(4,1)"},
  {"make_layout_like", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "(2,(3,(2,2))):(1,(2,(6,12)))"},
  {"make_layout_like", "():()", NULL, NULL, "():()"},
  {"make_layout_like", "(2,3,4):(12,1,3)", NULL, NULL, "(2,3,4):(12,1,3)"},
  {"make_layout_like", "((2,2),3):((0,6),2)", NULL, NULL, "((2,2),3):((0,3),1)"},
  {"make_layout_like", "(4,(2,3)):(-6,(-1,8))", NULL, NULL, "(4,(2,3)):(1,(4,8))"},
  {"make_layout_like", "(2,3):(1,2)", NULL, NULL, "(2,3):(1,2)"},
  {"make_layout_like", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "((2,2),(2,2)):((1,4),(2,8))"},
  {"make_layout_like", "(2,1,3):(1,0,2)", NULL, NULL, "(2,1,3):(1,0,2)"},
  {"make_layout_like", "(1,1):(0,0)", NULL, NULL, "(1,1):(0,0)"},
  {"make_layout_like", "(2,3,4):(0,0,0)", NULL, NULL, "(2,3,4):(0,0,0)"},
  {"make_layout_like", "(2,3,4):(-1,2,-3)", NULL, NULL, "(2,3,4):(4,8,1)"},
  {"make_layout_like", "((2,3),4):((0,1),0)", NULL, NULL, "((2,3),4):((0,1),0)"},
  {"make_layout_like", "(1,2,1):(7,0,7)", NULL, NULL, "(1,2,1):(0,0,0)"},
  {"make_layout_like", "((2,2),(2,2)):((0,1),(0,2))", NULL, NULL, "((2,2),(2,2)):((0,1),(0,2))"},
  {"make_layout_like", "(3,4):(5,-5)", NULL, NULL, "(3,4):(4,1)"},
  {"make_fragment_like", "0", NULL, NULL, "0:1"},
  {"make_fragment_like", "8", NULL, NULL, "8:1"},
  {"make_fragment_like", "(8)", NULL, NULL, "(8):(1)"},
  {"make_fragment_like", "((2,3),4)", NULL, NULL, "((2,3),4):((1,2),6)"},
  {"make_fragment_like", "(2,1,3)", NULL, NULL, "(2,1,3):(1,0,2)"},
  {"make_fragment_like", "((1))", NULL, NULL, "((1)):((0))"},
  {"make_fragment_like", "(2,-3)", NULL, NULL, NULL},
  {"make_fragment_like", "8:1", NULL, NULL, "8:1"},
  {"make_fragment_like", "4:0", NULL, NULL, "4:1"},
  {"make_fragment_like", "(2,3):(3,1)", NULL, NULL, "(2,(3)):(1,(2))"},
  {"make_fragment_like", "(4,2):(-1,4)", NULL, NULL, "(4,(2)):(1,(4))"},
  {"make_fragment_like", "(4,4):(4,1)", NULL, NULL, "(4,(4)):(1,(4))"},
  {"make_fragment_like", "(1,1):(0,0)", NULL, NULL, "(1,(1)):(0,(0))"},
  {"make_fragment_like", "(2,3,4):(12,1,3)", NULL, NULL, "(2,3,4):(1,2,6)"},
  {"make_fragment_like", "(3,2):(2,2)", NULL, NULL, "(3,(2)):(1,(3))"},
  {"make_fragment_like", "(2,3):(1,2)", NULL, NULL, "(2,(3)):(1,(2))"},
  {"make_fragment_like", "(4,2,3):(1,12,4)", NULL, NULL, "(4,2,3):(1,12,4)"},
  {"make_fragment_like", "(1,1):(0,0)", NULL, NULL, "(1,(1)):(0,(0))"},
  {"make_fragment_like", "(2,3,4):(1,1,1)", NULL, NULL, "(2,3,4):(1,2,2)"},
  {"make_fragment_like", "((2,3),4):((0,1),0)", NULL, NULL, "((2,3),(4)):((0,1),(3))"},
  {"make_fragment_like", "(4,(2,2)):(2,(0,1))", NULL, NULL, "(4,((2,2))):(1,((4,8)))"},
  {"make_fragment_like", "(3,4):(5,-5)", NULL, NULL, "(3,(4)):(1,(3))"},
  {"make_fragment_like", "(0,3):(1,0)", NULL, NULL, NULL},
  {"append", "8:1", NULL, NULL, "(8,1):(1,0)"},
  {"append", "8:2", NULL, NULL, "(8,1):(2,0)"},
  {"append", "1:0", NULL, NULL, "(1,1):(0,0)"},
  {"append", "4:0", NULL, NULL, "(4,1):(0,0)"},
  {"append", "(8):(1)", NULL, NULL, "(8,1):(1,0)"},
  {"append", "(2,3):(1,2)", NULL, NULL, "(2,3,1):(1,2,0)"},
  {"append", "(2,3):(3,1)", NULL, NULL, "(2,3,1):(3,1,0)"},
  {"append", "(2,(2,2)):(4,(2,1))", NULL, NULL, "(2,(2,2),1):(4,(2,1),0)"},
  {"append", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "((2,2),(2,2),1):((1,4),(2,8),0)"},
  {"append", "(4,2):(-1,4)", NULL, NULL, "(4,2,1):(-1,4,0)"},
  {"append", "(3,4):(0,1)", NULL, NULL, "(3,4,1):(0,1,0)"},
  {"append", "(2,1,3):(1,0,2)", NULL, NULL, "(2,1,3,1):(1,0,2,0)"},
  {"append", "(4,4):(4,1)", NULL, NULL, "(4,4,1):(4,1,0)"},
  {"append", "((2,3),4):((1,2),6)", NULL, NULL, "((2,3),4,1):((1,2),6,0)"},
  {"append", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "(2,(3,(2,2)),1):(1,(2,(6,12)),0)"},
  {"append", "(1,1):(0,0)", NULL, NULL, "(1,1,1):(0,0,0)"},
  {"append", "():()", NULL, NULL, "(1):(0)"},
  {"append", "((4)):((2))", NULL, NULL, "((4),1):((2),0)"},
  {"append", "(2,3,4):(12,1,3)", NULL, NULL, "(2,3,4,1):(12,1,3,0)"},
  {"append", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "(2,2,2,2,1):(0,2,4,1,0)"},
  {"append", "((2,2),3):((0,6),2)", NULL, NULL, "((2,2),3,1):((0,6),2,0)"},
  {"append", "(3,2):(2,2)", NULL, NULL, "(3,2,1):(2,2,0)"},
  {"prepend", "8:1", NULL, NULL, "(1,8):(0,1)"},
  {"prepend", "8:2", NULL, NULL, "(1,8):(0,2)"},
  {"prepend", "1:0", NULL, NULL, "(1,1):(0,0)"},
  {"prepend", "4:0", NULL, NULL, "(1,4):(0,0)"},
  {"prepend", "(8):(1)", NULL, NULL, "(1,8):(0,1)"},
  {"prepend", "(2,3):(1,2)", NULL, NULL, "(1,2,3):(0,1,2)"},
  {"prepend", "(2,3):(3,1)", NULL, NULL, "(1,2,3):(0,3,1)"},
  {"prepend", "(2,(2,2)):(4,(2,1))", NULL, NULL, "(1,2,(2,2)):(0,4,(2,1))"},
  {"prepend", "((2,2),(2,2)):((1,4),(2,8))", NULL, NULL, "(1,(2,2),(2,2)):(0,(1,4),(2,8))"},
  {"prepend", "(4,2):(-1,4)", NULL, NULL, "(1,4,2):(0,-1,4)"},
  {"prepend", "(3,4):(0,1)", NULL, NULL, "(1,3,4):(0,0,1)"},
  {"prepend", "(2,1,3):(1,0,2)", NULL, NULL, "(1,2,1,3):(0,1,0,2)"},
  {"prepend", "(4,4):(4,1)", NULL, NULL, "(1,4,4):(0,4,1)"},
  {"prepend", "((2,3),4):((1,2),6)", NULL, NULL, "(1,(2,3),4):(0,(1,2),6)"},
  {"prepend", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL, "(1,2,(3,(2,2))):(0,1,(2,(6,12)))"},
  {"prepend", "(1,1):(0,0)", NULL, NULL, "(1,1,1):(0,0,0)"},
  {"prepend", "():()", NULL, NULL, "(1):(0)"},
  {"prepend", "((4)):((2))", NULL, NULL, "(1,(4)):(0,(2))"},
  {"prepend", "(2,3,4):(12,1,3)", NULL, NULL, "(1,2,3,4):(0,12,1,3)"},
  {"prepend", "(2,2,2,2):(0,2,4,1)", NULL, NULL, "(1,2,2,2,2):(0,0,2,4,1)"},
  {"prepend", "((2,2),3):((0,6),2)", NULL, NULL, "(1,(2,2),3):(0,(0,6),2)"},
  {"prepend", "(3,2):(2,2)", NULL, NULL, "(1,3,2):(0,2,2)"},
  {"get", "8:1", "0", NULL, "8:1"},
  {"get", "8:2", "0,0,0", NULL, "8:2"},
  {"get", "4:0", "0,0", NULL, "4:0"},
  {"get", "(2,3):(1,2)", "0", NULL, "2:1"},
  {"get", "(2,3):(3,1)", "0", NULL, "2:3"},
  {"get", "(2,(2,2)):(4,(2,1))", "0", NULL, "2:4"},
  {"get", "(2,(2,2)):(4,(2,1))", "1,1,0", NULL, "2:1"},
  {"get", "((2,2),(2,2)):((1,4),(2,8))", "1,0", NULL, "2:2"},
  {"get", "(4,2):(-1,4)", "1", NULL, "2:4"},
  {"get", "(3,4):(0,1)", "1", NULL, "4:1"},
  {"get", "(2,1,3):(1,0,2)", "1", NULL, "1:0"},
  {"get", "(4,4):(4,1)", "0", NULL, "4:4"},
  {"get", "((2,3),4):((1,2),6)", "0", NULL, "(2,3):(1,2)"},
  {"get", "(2,(3,(2,2))):(1,(2,(6,12)))", "0", NULL, "2:1"},
  {"get", "(2,(3,(2,2))):(1,(2,(6,12)))", "1,1,0", NULL, "2:6"},
  {"get", "(1,1):(0,0)", "1,0", NULL, "1:0"},
  {"get", "(2,3,4):(12,1,3)", "0", NULL, "2:12"},
  {"get", "(2,3,4):(12,1,3)", "0,0,0", NULL, "2:12"},
  {"get", "(2,2,2,2):(0,2,4,1)", "1,0", NULL, "2:2"},
  {"get", "((2,2),3):((0,6),2)", "0,0", NULL, "2:0"},
  {"get", "(3,2):(2,2)", "0,0", NULL, "3:2"},
  {"get", "(4,(2,3)):(-6,(-1,8))", "0,0", NULL, "4:-6"},
  {"get", "8:1", "1", NULL, NULL},
  {"get", "1:0", "1", NULL, NULL},
  {"get", "(8):(1)", "1", NULL, NULL},
  {"get", "(2,3):(3,1)", "1,1,0", NULL, NULL},
  {"get", "(3,4):(0,1)", "1,1,0", NULL, NULL},
  {"get", "((2,3),4):((1,2),6)", "3", NULL, NULL},
  {"get", "():()", "1,1", NULL, NULL},
  {"get", "(2,3,4):(12,1,3)", "3", NULL, NULL},
  {"group", "8:1", "0", "0", "(8):(1)"},
  {"group", "1:0", "0", "1", "((1)):((0))"},
  {"group", "(8):(1)", "1", "1", "(8):(1)"},
  {"group", "(2,3):(3,1)", "0", "0", "(2,3):(3,1)"},
  {"group", "(2,(2,2)):(4,(2,1))", "0", "1", "((2),(2,2)):((4),(2,1))"},
  {"group", "((2,2),(2,2)):((1,4),(2,8))", "0", "2", "(((2,2),(2,2))):(((1,4),(2,8)))"},
  {"group", "(4,2):(-1,4)", "1", "2", "(4,(2)):(-1,(4))"},
  {"group", "(3,4):(0,1)", "2", "2", "(3,4):(0,1)"},
  {"group", "(2,1,3):(1,0,2)", "0", "3", "((2,1,3)):((1,0,2))"},
  {"group", "(4,4):(4,1)", "1", "2", "(4,(4)):(4,(1))"},
  {"group", "((2,3),4):((1,2),6)", "2", "2", "((2,3),4):((1,2),6)"},
  {"group", "(2,(3,(2,2))):(1,(2,(6,12)))", "1", "1", "(2,(3,(2,2))):(1,(2,(6,12)))"},
  {"group", "():()", "0", "0", "():()"},
  {"group", "(2,3,4):(12,1,3)", "1", "2", "(2,(3),4):(12,(1),3)"},
  {"group", "(2,2,2,2):(0,2,4,1)", "0", "1", "((2),2,2,2):((0),2,4,1)"},
  {"group", "(2,2,2,2):(0,2,4,1)", "2", "3", "(2,2,(2),2):(0,2,(4),1)"},
  {"group", "((2,2),3):((0,6),2)", "1", "1", "((2,2),3):((0,6),2)"},
  {"group", "(4,(2,3)):(-6,(-1,8))", "0", "0", "(4,(2,3)):(-6,(-1,8))"},
  {"group", "8:1", "1", "-1", "(8):(1)"},
  {"group", "(2,(2,2)):(4,(2,1))", "1", "-1", "(2,((2,2))):(4,((2,1)))"},
  {"group", "(4,2,3):(1,12,4)", "0", "-1", "((4,2,3)):((1,12,4))"},
  {"group", "(2,1,3):(1,0,2)", "2", "-1", "(2,1,(3)):(1,0,(2))"},
  {"group", "8:1", "0", "2", NULL},
  {"group", "1:0", "1", "2", NULL},
  {"group", "(8):(1)", "1", "3", NULL},
  {"group", "(2,(2,2)):(4,(2,1))", "0", "3", NULL},
  {"group", "(3,4):(0,1)", "0", "4", NULL},
  {"group", "(2,(3,(2,2))):(1,(2,(6,12)))", "0", "4", NULL},
  {"group", "((4)):((2))", "0", "2", NULL},
  {"group", "(3,2):(2,2)", "0", "3", NULL},
  {"take", "8:1", "0", "1", "(8):(1)"},
  {"take", "1:0", "0", "1", "(1):(0)"},
  {"take", "(8):(1)", "0", "1", "(8):(1)"},
  {"take", "(2,3):(1,2)", "0", "2", "(2,3):(1,2)"},
  {"take", "(2,3):(3,1)", "0", "1", "(2):(3)"},
  {"take", "(2,3):(3,1)", "1", "2", "(3):(1)"},
  {"take", "(2,(2,2)):(4,(2,1))", "0", "2", "(2,(2,2)):(4,(2,1))"},
  {"take", "((2,2),(2,2)):((1,4),(2,8))", "0", "1", "((2,2)):((1,4))"},
  {"take", "((2,2),(2,2)):((1,4),(2,8))", "1", "2", "((2,2)):((2,8))"},
  {"take", "(4,2):(-1,4)", "0", "2", "(4,2):(-1,4)"},
  {"take", "(3,4):(0,1)", "0", "1", "(3):(0)"},
  {"take", "(3,4):(0,1)", "1", "2", "(4):(1)"},
  {"take", "(2,1,3):(1,0,2)", "0", "2", "(2,1):(1,0)"},
  {"take", "(2,1,3):(1,0,2)", "1", "3", "(1,3):(0,2)"},
  {"take", "(2,1,3):(1,0,2)", "2", "3", "(3):(2)"},
  {"take", "(4,4):(4,1)", "0", "2", "(4,4):(4,1)"},
  {"take", "((2,3),4):((1,2),6)", "0", "1", "((2,3)):((1,2))"},
  {"take", "((2,3),4):((1,2),6)", "1", "2", "(4):(6)"},
  {"take", "(2,(3,(2,2))):(1,(2,(6,12)))", "0", "2", "(2,(3,(2,2))):(1,(2,(6,12)))"},
  {"take", "(1,1):(0,0)", "0", "1", "(1):(0)"},
  {"take", "(1,1):(0,0)", "1", "2", "(1):(0)"},
  {"take", "(2,3,4):(12,1,3)", "0", "1", "(2):(12)"},
  {"take", "8:1", "0", "0", NULL},
  {"take", "1:0", "1", "0", NULL},
  {"take", "(2,3):(3,1)", "0", "0", NULL},
  {"take", "(4,2):(-1,4)", "2", "3", NULL},
  {"take", "((2,3),4):((1,2),6)", "2", "3", NULL},
  {"take", "():()", "1", "0", NULL},
  {"take", "(3,2):(2,2)", "1", "3", NULL},
  {"take", "(2,(2,2)):(4,(2,1))", "3", "-1", NULL},
  {"select", "8:1", "0", NULL, "(8):(1)"},
  {"select", "1:0", "0", NULL, "(1):(0)"},
  {"select", "(8):(1)", "0", NULL, "(8):(1)"},
  {"select", "(2,3):(1,2)", "1,0", NULL, "(3,2):(2,1)"},
  {"select", "(2,3):(3,1)", "1,0", NULL, "(3,2):(1,3)"},
  {"select", "(2,(2,2)):(4,(2,1))", "1,0", NULL, "((2,2),2):((2,1),4)"},
  {"select", "((2,2),(2,2)):((1,4),(2,8))", "1,0", NULL, "((2,2),(2,2)):((2,8),(1,4))"},
  {"select", "(4,2):(-1,4)", "1,0", NULL, "(2,4):(4,-1)"},
  {"select", "(3,4):(0,1)", "1,0", NULL, "(4,3):(1,0)"},
  {"select", "(2,1,3):(1,0,2)", "1,0", NULL, "(1,2):(0,1)"},
  {"select", "(4,4):(4,1)", "0", NULL, "(4):(4)"},
  {"select", "((2,3),4):((1,2),6)", "0", NULL, "((2,3)):((1,2))"},
  {"select", "(2,(3,(2,2))):(1,(2,(6,12)))", "0", NULL, "(2):(1)"},
  {"select", "(1,1):(0,0)", "0", NULL, "(1):(0)"},
  {"select", "((4)):((2))", "0", NULL, "((4)):((2))"},
  {"select", "(2,3,4):(12,1,3)", "1,0", NULL, "(3,2):(1,12)"},
  {"select", "(2,2,2,2):(0,2,4,1)", "0", NULL, "(2):(0)"},
  {"select", "(2,2,2,2):(0,2,4,1)", "2,0,1", NULL, "(2,2,2):(4,0,2)"},
  {"select", "((2,2),3):((0,6),2)", "1", NULL, "(3):(2)"},
  {"select", "(3,2):(2,2)", "1", NULL, "(2):(2)"},
  {"select", "(4,(2,3)):(-6,(-1,8))", "1", NULL, "((2,3)):((-1,8))"},
  {"select", "(2,3):(1,2)", "", NULL, "():()"},
  {"select", "8:1", "1", NULL, NULL},
  {"select", "8:2", "0,1,2,3", NULL, NULL},
  {"select", "4:0", "2", NULL, NULL},
  {"select", "(2,(2,2)):(4,(2,1))", "2", NULL, NULL},
  {"select", "(4,4):(4,1)", "2,0,1", NULL, NULL},
  {"select", "():()", "1,0", NULL, NULL},
  {"select", "(3,2):(2,2)", "2", NULL, NULL},
  {"select", "((2,2),(2,2)):((1,4),(2,8))", "0,1,2,3", NULL, NULL},
  {"unflatten", "8:1", "1", NULL, "8:1"},
  {"unflatten", "8:1", "(1)", NULL, "(8):(1)"},
  {"unflatten", "8:2", "1", NULL, "8:2"},
  {"unflatten", "8:2", "(1)", NULL, "(8):(2)"},
  {"unflatten", "1:0", "1", NULL, "1:0"},
  {"unflatten", "1:0", "(1)", NULL, "(1):(0)"},
  {"unflatten", "4:0", "1", NULL, "4:0"},
  {"unflatten", "4:0", "(1)", NULL, "(4):(0)"},
  {"unflatten", "(8):(1)", "1", NULL, "8:1"},
  {"unflatten", "(8):(1)", "(1)", NULL, "(8):(1)"},
  {"unflatten", "(2,3):(1,2)", "(1,1)", NULL, "(2,3):(1,2)"},
  {"unflatten", "(2,3):(3,1)", "(1,1)", NULL, "(2,3):(3,1)"},
  {"unflatten", "(2,(2,2)):(4,(2,1))", "(1,1)", NULL, "(2,(2,2)):(4,(2,1))"},
  {"unflatten", "((2,2),(2,2)):((1,4),(2,8))", "(1,1)", NULL, "((2,2),(2,2)):((1,4),(2,8))"},
  {"unflatten", "(4,2):(-1,4)", "(1,1)", NULL, "(4,2):(-1,4)"},
  {"unflatten", "(3,4):(0,1)", "(1,1)", NULL, "(3,4):(0,1)"},
  {"unflatten", "(2,1,3):(1,0,2)", "((1,1),1)", NULL, "((2,1),3):((1,0),2)"},
  {"unflatten", "(2,1,3):(1,0,2)", "(1,(1,1))", NULL, "(2,(1,3)):(1,(0,2))"},
  {"unflatten", "(2,1,3):(1,0,2)", "(1,1,1)", NULL, "(2,1,3):(1,0,2)"},
  {"unflatten", "(4,4):(4,1)", "(1,1)", NULL, "(4,4):(4,1)"},
  {"unflatten", "((2,3),4):((1,2),6)", "(1,1)", NULL, "((2,3),4):((1,2),6)"},
  {"unflatten", "(2,(3,(2,2))):(1,(2,(6,12)))", "(1,1)", NULL, "(2,(3,(2,2))):(1,(2,(6,12)))"},
  {"unflatten", "8:1", "(1,1)", NULL, NULL},
  {"unflatten", "4:0", "(1,1)", NULL, NULL},
  {"unflatten", "(2,3):(1,2)", "(1,(1,(1,1)))", NULL, NULL},
  {"unflatten", "((2,2),(2,2)):((1,4),(2,8))", "1", NULL, NULL},
  {"unflatten", "(2,1,3):(1,0,2)", "((1,1),(1,1))", NULL, NULL},
  {"unflatten", "(2,(3,(2,2))):(1,(2,(6,12)))", "((1,1),1)", NULL, NULL},
  {"unflatten", "():()", "1", NULL, NULL},
  {"unflatten", "(2,2,2,2):(0,2,4,1)", "(1)", NULL, NULL},
  {"crd2idx", "0", "8:1", NULL, "0"},
  {"crd2idx", "-1", "8:2", NULL, "-2"},
  {"crd2idx", "23", "4:0", NULL, "0"},
  {"crd2idx", "0", "(2,3):(1,2)", NULL, "0"},
  {"crd2idx", "0", "(2,3):(3,1)", NULL, "0"},
  {"crd2idx", "0", "(2,(2,2)):(4,(2,1))", NULL, "0"},
  {"crd2idx", "(0,0)", "(2,(2,2)):(4,(2,1))", NULL, "0"},
  {"crd2idx", "(_,1)", "((2,2),(2,2)):((1,4),(2,8))", NULL, "2"},
  {"crd2idx", "1", "(4,2):(-1,4)", NULL, "-1"},
  {"crd2idx", "1", "(3,4):(0,1)", NULL, "0"},
  {"crd2idx", "1", "(2,1,3):(1,0,2)", NULL, "1"},
  {"crd2idx", "100", "(4,4):(4,1)", NULL, "25"},
  {"crd2idx", "100", "((2,3),4):((1,2),6)", NULL, "100"},
  {"crd2idx", "5", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, "5"},
  {"crd2idx", "(1,(_,1))", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, "7"},
  {"crd2idx", "(1,_)", "(1,1):(0,0)", NULL, "0"},
  {"crd2idx", "0", "(2,3,4):(12,1,3)", NULL, "0"},
  {"crd2idx", "23", "(2,2,2,2):(0,2,4,1)", NULL, "8"},
  {"crd2idx", "(1,_)", "((2,2),3):((0,6),2)", NULL, "0"},
  {"crd2idx", "(1,2)", "(3,2):(2,2)", NULL, "6"},
  {"crd2idx", "(1,2)", "(4,(2,3)):(-6,(-1,8))", NULL, "2"},
  {"crd2idx", "(2,(1,1))", "(2,(2,2)):(4,(2,1))", NULL, "11"},
  {"crd2idx", "(1,2)", "8:1", NULL, NULL},
  {"crd2idx", "(2,(1,(1,1)))", "1:0", NULL, NULL},
  {"crd2idx", "(_,(1,(1,_)))", "(2,3):(1,2)", NULL, NULL},
  {"crd2idx", "((_,1),_)", "(3,4):(0,1)", NULL, NULL},
  {"crd2idx", "(1,1,2)", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL},
  {"crd2idx", "((1,1),(2,0))", "((4)):((2))", NULL, NULL},
  {"crd2idx", "(_,0,_)", "((2,2),3):((0,6),2)", NULL, NULL},
  {"crd2idx", "(())", "(2,(2,2)):(4,(2,1))", NULL, NULL},
  {"slice", "0", "8:1", NULL, "():()"},
  {"slice", "_", "8:2", NULL, "8:2"},
  {"slice", "-1", "4:0", NULL, "():()"},
  {"slice", "23", "(2,3):(1,2)", NULL, "():()"},
  {"slice", "100", "(2,3):(3,1)", NULL, "():()"},
  {"slice", "-1", "(2,(2,2)):(4,(2,1))", NULL, "():()"},
  {"slice", "5", "((2,2),(2,2)):((1,4),(2,8))", NULL, "():()"},
  {"slice", "(1,(_,1))", "((2,2),(2,2)):((1,4),(2,8))", NULL, "(2):(2)"},
  {"slice", "_", "(4,2):(-1,4)", NULL, "(4,2):(-1,4)"},
  {"slice", "(0,0)", "(3,4):(0,1)", NULL, "():()"},
  {"slice", "5", "(4,4):(4,1)", NULL, "():()"},
  {"slice", "23", "((2,3),4):((1,2),6)", NULL, "():()"},
  {"slice", "5", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, "():()"},
  {"slice", "(2,(1,(1,1)))", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, "():()"},
  {"slice", "(0,0)", "(1,1):(0,0)", NULL, "():()"},
  {"slice", "100", "((4)):((2))", NULL, "():()"},
  {"slice", "0", "(2,2,2,2):(0,2,4,1)", NULL, "():()"},
  {"slice", "(1,2)", "((2,2),3):((0,6),2)", NULL, "():()"},
  {"slice", "-1", "(3,2):(2,2)", NULL, "():()"},
  {"slice", "(1,2)", "(4,(2,3)):(-6,(-1,8))", NULL, "():()"},
  {"slice", "(-1,-1)", "(2,(2,2)):(4,(2,1))", NULL, "():()"},
  {"slice", "(2,(1,1))", "(4,(2,3)):(-6,(-1,8))", NULL, "():()"},
  {"slice", "(1,2)", "8:1", NULL, NULL},
  {"slice", "((0,1),2)", "1:0", NULL, NULL},
  {"slice", "(2,(1,(1,1)))", "(2,3):(1,2)", NULL, NULL},
  {"slice", "((1,1),(2,0))", "(3,4):(0,1)", NULL, NULL},
  {"slice", "(_,(1,(1,_)))", "((2,3),4):((1,2),6)", NULL, NULL},
  {"slice", "(_,_)", "((4)):((2))", NULL, NULL},
  {"slice", "(3)", "((2,2),3):((0,6),2)", NULL, NULL},
  {"slice", "(())", "(2,(2,2)):(4,(2,1))", NULL, NULL},
  {"slice_and_offset", "0", "8:1", NULL, "(():(),0)"},
  {"slice_and_offset", "-1", "8:2", NULL, "(():(),-2)"},
  {"slice_and_offset", "23", "4:0", NULL, "(():(),0)"},
  {"slice_and_offset", "0", "(2,3):(1,2)", NULL, "(():(),0)"},
  {"slice_and_offset", "0", "(2,3):(3,1)", NULL, "(():(),0)"},
  {"slice_and_offset", "0", "(2,(2,2)):(4,(2,1))", NULL, "(():(),0)"},
  {"slice_and_offset", "(0,0)", "(2,(2,2)):(4,(2,1))", NULL, "(():(),0)"},
  {"slice_and_offset", "(_,1)", "((2,2),(2,2)):((1,4),(2,8))", NULL, "(((2,2)):((1,4)),2)"},
  {"slice_and_offset", "1", "(4,2):(-1,4)", NULL, "(():(),-1)"},
  {"slice_and_offset", "1", "(3,4):(0,1)", NULL, "(():(),0)"},
  {"slice_and_offset", "1", "(2,1,3):(1,0,2)", NULL, "(():(),1)"},
  {"slice_and_offset", "100", "(4,4):(4,1)", NULL, "(():(),25)"},
  {"slice_and_offset", "100", "((2,3),4):((1,2),6)", NULL, "(():(),100)"},
  {"slice_and_offset", "5", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, "(():(),5)"},
  {"slice_and_offset", "(1,(_,1))", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, "((3):(2),7)"},
  {"slice_and_offset", "(1,_)", "(1,1):(0,0)", NULL, "((1):(0),0)"},
  {"slice_and_offset", "0", "(2,3,4):(12,1,3)", NULL, "(():(),0)"},
  {"slice_and_offset", "23", "(2,2,2,2):(0,2,4,1)", NULL, "(():(),8)"},
  {"slice_and_offset", "(1,_)", "((2,2),3):((0,6),2)", NULL, "((3):(2),0)"},
  {"slice_and_offset", "(1,2)", "(3,2):(2,2)", NULL, "(():(),6)"},
  {"slice_and_offset", "(1,2)", "(4,(2,3)):(-6,(-1,8))", NULL, "(():(),2)"},
  {"slice_and_offset", "(2,(1,1))", "(2,(2,2)):(4,(2,1))", NULL, "(():(),11)"},
  {"slice_and_offset", "(1,2)", "8:1", NULL, NULL},
  {"slice_and_offset", "(2,(1,(1,1)))", "1:0", NULL, NULL},
  {"slice_and_offset", "(_,(1,(1,_)))", "(2,3):(1,2)", NULL, NULL},
  {"slice_and_offset", "((_,1),_)", "(3,4):(0,1)", NULL, NULL},
  {"slice_and_offset", "(1,1,2)", "(2,(3,(2,2))):(1,(2,(6,12)))", NULL, NULL},
  {"slice_and_offset", "((1,1),(2,0))", "((4)):((2))", NULL, NULL},
  {"slice_and_offset", "(_,0,_)", "((2,2),3):((0,6),2)", NULL, NULL},
  {"slice_and_offset", "(())", "(2,(2,2)):(4,(2,1))", NULL, NULL},
};

static int64_t parse_ints(const char *text, int64_t *out) {
  int64_t n = 0;
  for (const char *c = text; *c;) {
    char *end;
    out[n++] = strtoll(c, &end, 10);
    c = *end == ',' ? end + 1 : end;
  }
  return n;
}

/* The text of (layout, offset), as CuTe prints slice_and_offset's tuple. */
static void pair_text(char *out, size_t cap, const cl_layout_t *l, int64_t offset) {
  snprintf(out, cap, "(%s,%lld)", layout_text(l), (long long)offset);
}

static cl_status run_golden(const golden *g, char *out, size_t cap) {
  const char *fn = g->fn;
  cl_layout_t *r = NULL, *la = NULL, *lb = NULL;
  cl_tuple_t *ta = NULL, *tb = NULL, *tr = NULL;
  int64_t v = 0, ints[16], n;
  enum { LAYOUT, TUPLE, INT, TEXT } kind = LAYOUT;
  cl_status s = CL_E_UNSUPPORTED;
  if (strchr(g->a, ':') != NULL && strcmp(fn, "crd2idx") && strcmp(fn, "slice") && strcmp(fn, "slice_and_offset"))
    la = lay(g->a);
  else
    ta = tup(g->a);
  if (!strcmp(fn, "shape")) {
    kind = TUPLE;
    s = cl_layout_shape(la, &tr);
  } else if (!strcmp(fn, "stride")) {
    kind = TUPLE;
    s = cl_layout_stride(la, &tr);
  } else if (!strcmp(fn, "size")) {
    kind = INT;
    s = cl_layout_size_checked(la, &v);
  } else if (!strcmp(fn, "cosize")) {
    kind = INT;
    s = cl_layout_cosize_checked(la, &v);
  } else if (!strcmp(fn, "coshape")) {
    kind = TUPLE;
    s = cl_layout_coshape(la, &tr);
  } else if (!strcmp(fn, "rank")) {
    kind = INT;
    v = cl_layout_rank(la);
    s = CL_OK;
  } else if (!strcmp(fn, "depth")) {
    kind = INT;
    v = cl_layout_depth(la);
    s = v < 0 ? (cl_status)v : CL_OK;
  } else if (!strcmp(fn, "flatten")) {
    s = cl_layout_flatten(la, &r);
  } else if (!strcmp(fn, "zip")) {
    s = cl_layout_zip(la, &r);
  } else if (!strcmp(fn, "make_layout_L")) {
    s = cl_layout_concat((const cl_layout_t *const *)&la, 1, &r);
  } else if (!strcmp(fn, "make_layout_LL")) {
    lb = lay(g->b);
    const cl_layout_t *both[] = {la, lb};
    s = cl_layout_concat(both, 2, &r);
  } else if (!strcmp(fn, "make_layout_s")) {
    s = cl_layout_make_left(ta, &r);
  } else if (!strcmp(fn, "make_layout_LayoutLeft")) {
    s = cl_layout_make_left(ta, &r);
  } else if (!strcmp(fn, "make_layout_LayoutRight")) {
    s = cl_layout_make_right(ta, &r);
  } else if (!strcmp(fn, "make_layout_ss")) {
    tb = tup(g->b);
    s = cl_layout_make(ta, tb, &r);
  } else if (!strcmp(fn, "make_ordered_layout")) {
    tb = tup(g->b);
    s = cl_layout_make_ordered(ta, tb, &r);
  } else if (!strcmp(fn, "make_layout_like")) {
    s = cl_make_layout_like(la, &r);
  } else if (!strcmp(fn, "make_fragment_like")) {
    s = la ? cl_make_fragment_like(la, &r) : cl_layout_make_left(ta, &r); /* of a shape: make_layout */
  } else if (!strcmp(fn, "append") || !strcmp(fn, "prepend")) {
    lb = g->b ? lay(g->b) : NULL;
    s = fn[0] == 'a' ? cl_layout_append(la, lb, &r) : cl_layout_prepend(la, lb, &r);
  } else if (!strcmp(fn, "get")) {
    n = parse_ints(g->b, ints);
    s = cl_layout_get(la, ints, n, &r);
  } else if (!strcmp(fn, "select")) {
    n = parse_ints(g->b, ints);
    s = cl_layout_select(la, ints, n, &r);
  } else if (!strcmp(fn, "group")) {
    s = cl_layout_group(la, strtoll(g->b, NULL, 10), strtoll(g->c, NULL, 10), &r);
  } else if (!strcmp(fn, "take")) {
    s = cl_layout_take(la, strtoll(g->b, NULL, 10), strtoll(g->c, NULL, 10), &r);
  } else if (!strcmp(fn, "unflatten")) {
    tb = tup(g->b);
    s = cl_layout_unflatten(la, tb, &r);
  } else if (!strcmp(fn, "crd2idx")) {
    kind = INT;
    lb = lay(g->b);
    s = cl_layout_eval_coord(lb, ta, &v);
  } else if (!strcmp(fn, "slice")) {
    lb = lay(g->b);
    s = cl_layout_slice(ta, lb, &r);
  } else if (!strcmp(fn, "slice_and_offset")) {
    kind = TEXT;
    lb = lay(g->b);
    s = cl_layout_slice_and_offset(ta, lb, &r, &v);
    if (s == CL_OK)
      pair_text(out, cap, r, v);
  } else {
    fail_msg("no golden dispatch for %s", fn);
  }
  if (s == CL_OK) {
    if (kind == LAYOUT)
      snprintf(out, cap, "%s", layout_text(r));
    else if (kind == TUPLE)
      snprintf(out, cap, "%s", tuple_text(tr));
    else if (kind == INT)
      snprintf(out, cap, "%lld", (long long)v);
  } else {
    assert_null(r);
    assert_null(tr);
  }
  cl_layout_free(r);
  cl_layout_free(la);
  cl_layout_free(lb);
  cl_tuple_free(ta);
  cl_tuple_free(tb);
  cl_tuple_free(tr);
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

/* ------------------------------------------------------- construction */

static void test_construction(void **state) {
  (void)state;
  cl_tuple_t *shape = tup("(2,(3,1),4)"), *stride = tup("(1,(2,0),6)"), *order = tup("(2,(0,1),0)");
  cl_layout_t *l = NULL;
  assert_int_equal(cl_layout_make(shape, stride, &l), CL_OK);
  assert_layout_is(l, "(2,(3,1),4):(1,(2,0),6)");
  cl_layout_free(l);
  assert_int_equal(cl_layout_make(shape, NULL, &l), CL_OK);
  assert_layout_is(l, "(2,(3,1),4):(1,(2,0),6)");
  cl_layout_free(l);
  assert_int_equal(cl_layout_make_left(shape, &l), CL_OK);
  assert_layout_is(l, "(2,(3,1),4):(1,(2,0),6)");
  cl_layout_free(l);
  assert_int_equal(cl_layout_make_right(shape, &l), CL_OK);
  assert_layout_is(l, "(2,(3,1),4):(12,(4,0),1)");
  cl_layout_free(l);
  assert_int_equal(cl_layout_make_ordered(shape, order, &l), CL_OK);
  assert_layout_is(l, "(2,(3,1),4):(12,(1,0),1)");
  cl_layout_free(l);

  cl_tuple_t *bad = tup("(1,2,3)"), *u = tup("(2,_,4)"), *short_order = tup("(1,2)");
  l = (cl_layout_t *)1;
  assert_int_equal(cl_layout_make(shape, bad, &l), CL_E_RANK);
  assert_null(l);
  assert_non_null(strstr(cl_last_error(), "congruent"));
  assert_int_equal(cl_layout_make(u, u, &l), CL_E_TYPE);
  assert_int_equal(cl_layout_make_left(u, &l), CL_E_TYPE);
  assert_int_equal(cl_layout_make_right(u, &l), CL_E_TYPE);
  assert_int_equal(cl_layout_make_ordered(shape, short_order, &l), CL_E_RANK);
  assert_int_equal(cl_layout_make_ordered(shape, bad, &l), CL_OK); /* an order leaf may cover a sub-shape */
  assert_layout_is(l, "(2,(3,1),4):(1,(2,0),6)");
  cl_layout_free(l);
  assert_int_equal(cl_layout_make_ordered(shape, u, &l), CL_E_TYPE);
  assert_int_equal(cl_layout_make(NULL, stride, &l), CL_E_NULL);
  assert_int_equal(cl_layout_make(shape, stride, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_make_left(NULL, &l), CL_E_NULL);
  assert_int_equal(cl_layout_make_right(NULL, &l), CL_E_NULL);
  assert_int_equal(cl_layout_make_ordered(NULL, order, &l), CL_E_NULL);
  assert_int_equal(cl_layout_make_ordered(shape, NULL, &l), CL_E_NULL);
  assert_null(l);

  cl_tuple_t *huge = tup("(4294967296,4294967296,2)");
  assert_int_equal(cl_layout_make_left(huge, &l), CL_E_OVERFLOW);
  assert_null(l);
  cl_tuple_free(huge);
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_tuple_free(order);
  cl_tuple_free(bad);
  cl_tuple_free(u);
  cl_tuple_free(short_order);
}

static void test_concat_and_copy(void **state) {
  (void)state;
  cl_layout_t *a = lay("(2,3):(1,2)"), *b = lay("8:6"), *r = NULL, *c = NULL;
  const cl_layout_t *parts[] = {a, b, a};
  assert_int_equal(cl_layout_concat(parts, 3, &r), CL_OK);
  assert_layout_is(r, "((2,3),8,(2,3)):((1,2),6,(1,2))");
  assert_int_equal(cl_layout_copy(r, &c), CL_OK);
  assert_true(cl_layout_equal(r, c));
  assert_false(cl_layout_equal(r, a));
  assert_false(cl_layout_equal(r, NULL));
  cl_layout_free(c);
  cl_layout_free(r);
  assert_int_equal(cl_layout_concat(parts, 0, &r), CL_OK);
  assert_layout_is(r, "():()");
  cl_layout_free(r);
  r = (cl_layout_t *)1;
  const cl_layout_t *holes[] = {a, NULL};
  assert_int_equal(cl_layout_concat(holes, 2, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_layout_concat(NULL, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_concat(parts, -1, &r), CL_E_DOMAIN);
  assert_int_equal(cl_layout_concat(parts, 1, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_copy(NULL, &r), CL_E_NULL);
  assert_int_equal(cl_layout_copy(a, NULL), CL_E_NULL);
  /* More modes than a tuple may hold. */
  const cl_layout_t **many = malloc((CL_MAX_RANK + 1) * sizeof *many);
  assert_non_null(many);
  for (int i = 0; i <= CL_MAX_RANK; i++)
    many[i] = b;
  assert_int_equal(cl_layout_concat(many, CL_MAX_RANK, &r), CL_OK);
  assert_int_equal(cl_layout_rank(r), CL_MAX_RANK);
  cl_layout_free(r);
  assert_int_equal(cl_layout_concat(many, CL_MAX_RANK + 1, &r), CL_E_LIMIT);
  assert_null(r);
  free(many);
  cl_layout_free(a);
  cl_layout_free(b);
  cl_layout_free(NULL);
}

static void test_like(void **state) {
  (void)state;
  expect_layout1(cl_make_layout_like, "(2,2,2,2):(0,2,4,1)", "(2,2,2,2):(0,2,4,1)");
  expect_layout1(cl_make_layout_like, "(2,3,4):(-1,2,-3)", "(2,3,4):(4,8,1)");
  expect_layout1(cl_make_layout_like, "(2,3):(1,1)", "(2,3):(1,1)");
  expect_layout1(cl_make_layout_like, "((2,3),4):((0,1),0)", "((2,3),4):((0,1),0)");
  expect_layout1(cl_make_fragment_like, "8:2", "8:1");
  expect_layout1(cl_make_fragment_like, "(2,3):(3,1)", "(2,(3)):(1,(2))");
  expect_layout1(cl_make_fragment_like, "(2,3,4):(12,1,3)", "(2,3,4):(1,2,6)");
  expect_layout1(cl_make_fragment_like, "((2,2),3):((0,6),2)", "((2,2),(3)):((0,1),(2))");
  expect_layout1(cl_make_fragment_like, "():()", "():()");
  cl_layout_t *r = (cl_layout_t *)1;
  assert_int_equal(cl_make_layout_like(NULL, &r), CL_E_NULL);
  assert_null(r);
  assert_int_equal(cl_make_fragment_like(NULL, &r), CL_E_NULL);
  cl_layout_t *a = lay("8:1");
  assert_int_equal(cl_make_layout_like(a, NULL), CL_E_NULL);
  assert_int_equal(cl_make_fragment_like(a, NULL), CL_E_NULL);
  cl_layout_free(a);
}

/* ------------------------------------------------------- queries */

static void test_queries(void **state) {
  (void)state;
  static const struct { const char *l; int64_t size, cosize, rank, depth; } cases[] = {
    {"8:1", 8, 8, 1, 0}, {"8:2", 8, 15, 1, 0}, {"8:0", 8, 1, 1, 0}, {"8:-1", 8, 8, 1, 0},
    {"(2,(2,2)):(4,(2,1))", 8, 8, 2, 2}, {"(4,2):(-1,4)", 8, 8, 2, 1}, {"(3,4):(0,1)", 12, 4, 2, 1},
    {"(0,3):(1,1)", 0, 2, 2, 1}, {"():()", 1, 1, 0, CL_E_DOMAIN}, {"((8)):((1))", 8, 8, 1, 2},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_layout_t *l = lay(cases[i].l);
    int64_t v = -1;
    assert_int_equal(cl_layout_size(l), cases[i].size);
    assert_int_equal(cl_layout_size_checked(l, &v), CL_OK);
    assert_int_equal(v, cases[i].size);
    assert_int_equal(cl_layout_cosize(l), cases[i].cosize);
    assert_int_equal(cl_layout_cosize_checked(l, &v), CL_OK);
    assert_int_equal(v, cases[i].cosize);
    assert_int_equal(cl_layout_rank(l), cases[i].rank);
    assert_int_equal(cl_layout_depth(l), cases[i].depth);
    cl_tuple_t *t = NULL;
    assert_int_equal(cl_layout_coshape(l, &t), CL_OK);
    assert_int_equal(cl_tuple_value(t, &v), CL_OK);
    assert_int_equal(v, cases[i].cosize);
    cl_tuple_free(t);
    cl_layout_free(l);
  }
  cl_layout_t *l = lay("(2,(3,4)):(1,(-2,0))");
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_layout_shape(l, &t), CL_OK);
  assert_tuple_is(t, "(2,(3,4))");
  cl_tuple_free(t);
  assert_int_equal(cl_layout_stride(l, &t), CL_OK);
  assert_tuple_is(t, "(1,(-2,0))");
  cl_tuple_free(t);

  int64_t v;
  cl_layout_t *big = lay("(4294967296,4294967296):(1,1)"), *far = lay("(3,2):(4611686018427387904,1)");
  assert_int_equal(cl_layout_size_checked(big, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_layout_size(big), CL_E_OVERFLOW);
  assert_int_equal(cl_layout_cosize_checked(far, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_layout_cosize(far), CL_E_OVERFLOW);
  t = (cl_tuple_t *)1;
  assert_int_equal(cl_layout_coshape(far, &t), CL_E_OVERFLOW);
  assert_null(t);
  cl_layout_free(big);
  cl_layout_free(far);

  assert_int_equal(cl_layout_shape(NULL, &t), CL_E_NULL);
  assert_null(t);
  assert_int_equal(cl_layout_shape(l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_stride(NULL, &t), CL_E_NULL);
  assert_int_equal(cl_layout_stride(l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_size(NULL), CL_E_NULL);
  assert_int_equal(cl_layout_cosize(NULL), CL_E_NULL);
  assert_int_equal(cl_layout_size_checked(NULL, &v), CL_E_NULL);
  assert_int_equal(cl_layout_size_checked(l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_cosize_checked(NULL, &v), CL_E_NULL);
  assert_int_equal(cl_layout_cosize_checked(l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_coshape(NULL, &t), CL_E_NULL);
  assert_int_equal(cl_layout_coshape(l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_rank(NULL), CL_E_NULL);
  assert_int_equal(cl_layout_depth(NULL), CL_E_NULL);
  cl_layout_free(l);
}

static void test_get(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,(3,(4,5))):(1,(2,(6,24)))"), *r = NULL;
  static const struct { int64_t path[4]; int64_t n; const char *expected; } gets[] = {
    {{0}, 0, "(2,(3,(4,5))):(1,(2,(6,24)))"}, {{0}, 1, "2:1"}, {{1}, 1, "(3,(4,5)):(2,(6,24))"},
    {{1, 1, 0}, 3, "4:6"}, {{0, 0, 0}, 3, "2:1"}, {{1, 1, 1, 0}, 4, "5:24"},
  };
  for (size_t i = 0; i < COUNT_OF(gets); i++) {
    assert_int_equal(cl_layout_get(l, gets[i].path, gets[i].n, &r), CL_OK);
    assert_layout_is(r, gets[i].expected);
    cl_layout_free(r);
  }
  static const int64_t bad[][2] = {{2, 0}, {-1, 0}, {0, 1}, {1, 2}};
  for (size_t i = 0; i < COUNT_OF(bad); i++) {
    r = (cl_layout_t *)1;
    assert_int_equal(cl_layout_get(l, bad[i], 2, &r), CL_E_DOMAIN);
    assert_null(r);
  }
  assert_int_equal(cl_layout_get(NULL, gets[1].path, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_get(l, NULL, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_get(l, gets[1].path, 1, NULL), CL_E_NULL);
  cl_layout_free(l);
}

/* ------------------------------------------------------- evaluation */

static void test_eval(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,(2,2)):(4,(2,1))");
  static const int64_t expected[] = {0, 4, 2, 6, 1, 5, 3, 7};
  for (int64_t i = 0; i < 8; i++) {
    int64_t v = -1;
    assert_int_equal(cl_layout_eval(l, i, &v), CL_OK);
    assert_int_equal(v, expected[i]);
  }
  int64_t v = 0;
  /* Beyond the size the last mode takes the rest; below 0 C division. */
  assert_int_equal(cl_layout_eval(l, 9, &v), CL_OK);
  assert_int_equal(v, 4 + 2 * 1);
  assert_int_equal(cl_layout_eval(l, -1, &v), CL_OK);
  assert_int_equal(v, -4);
  cl_tuple_t *c = tup("(1,(1,0))"), *flat = tup("(1,2)"), *bad = tup("(1,2,3)"), *u = tup("(1,_)");
  assert_int_equal(cl_layout_eval_coord(l, c, &v), CL_OK);
  assert_int_equal(v, 6);
  assert_int_equal(cl_layout_eval_coord(l, flat, &v), CL_OK);
  assert_int_equal(v, 4 + 1); /* 2 in (2,2):(2,1) is (0,1) */
  assert_int_equal(cl_layout_eval_coord(l, u, &v), CL_OK);
  assert_int_equal(v, 4);
  assert_int_equal(cl_layout_eval_coord(l, bad, &v), CL_E_RANK);
  assert_int_equal(cl_layout_eval(NULL, 0, &v), CL_E_NULL);
  assert_int_equal(cl_layout_eval(l, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_eval_coord(NULL, c, &v), CL_E_NULL);
  assert_int_equal(cl_layout_eval_coord(l, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_layout_eval_coord(l, c, NULL), CL_E_NULL);
  cl_layout_t *far = lay("(2,2):(4611686018427387904,1)"), *empty = lay("(2,()):(1,())");
  assert_int_equal(cl_layout_eval(far, 1, &v), CL_OK);
  assert_int_equal(cl_layout_eval(far, 2, &v), CL_OK);
  assert_int_equal(cl_layout_eval(far, 3, &v), CL_OK);
  assert_int_equal(v, INT64_C(4611686018427387905));
  cl_layout_t *farther = lay("(3,2):(4611686018427387904,1)");
  assert_int_equal(cl_layout_eval(farther, 2, &v), CL_E_OVERFLOW);
  assert_int_equal(cl_layout_eval(l, INT64_MIN, &v), CL_OK);
  assert_int_equal(cl_layout_eval(empty, 0, &v), CL_E_DOMAIN);
  cl_layout_free(far);
  cl_layout_free(farther);
  cl_layout_free(empty);
  cl_layout_free(l);
  cl_tuple_free(c);
  cl_tuple_free(flat);
  cl_tuple_free(bad);
  cl_tuple_free(u);
}

/* ------------------------------------------------------- slicing and modes */

static void test_slice(void **state) {
  (void)state;
  cl_layout_t *l = lay("((2,3),(2,4)):((1,2),(6,12))"), *r = NULL;
  static const struct { const char *crd, *slice; int64_t offset; } cases[] = {
    {"_", "((2,3),(2,4)):((1,2),(6,12))", 0},
    {"(_,_)", "((2,3),(2,4)):((1,2),(6,12))", 0},
    {"(_,5)", "((2,3)):((1,2))", 6 + 2 * 12},
    {"(3,_)", "((2,4)):((6,12))", 1 + 2},
    {"((1,_),(_,2))", "(3,2):(2,6)", 1 + 24},
    {"((_,2),_)", "(2,(2,4)):(1,(6,12))", 4},
    {"(1,2)", "():()", 1 + 12},
    {"7", "():()", 1 + 6},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_tuple_t *c = tup(cases[i].crd);
    int64_t off = -1;
    assert_int_equal(cl_layout_slice(c, l, &r), CL_OK);
    assert_layout_is(r, cases[i].slice);
    cl_layout_free(r);
    assert_int_equal(cl_layout_slice_and_offset(c, l, &r, &off), CL_OK);
    assert_layout_is(r, cases[i].slice);
    assert_int_equal(off, cases[i].offset);
    cl_layout_free(r);
    cl_tuple_free(c);
  }
  static const char *const bad[] = {"(_,_,_)", "((_,_,_),1)", "(1,(_,_,_))", "(2:1,_)"};
  for (size_t i = 0; i < COUNT_OF(bad); i++) {
    cl_tuple_t *c = tup(bad[i]);
    int64_t off = 0;
    r = (cl_layout_t *)1;
    assert_true(cl_layout_slice(c, l, &r) < 0);
    assert_null(r);
    r = (cl_layout_t *)1;
    assert_true(cl_layout_slice_and_offset(c, l, &r, &off) < 0);
    assert_null(r);
    cl_tuple_free(c);
  }
  cl_tuple_t *c = tup("_");
  int64_t off;
  assert_int_equal(cl_layout_slice(NULL, l, &r), CL_E_NULL);
  assert_int_equal(cl_layout_slice(c, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_layout_slice(c, l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset(NULL, l, &r, &off), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset(c, NULL, &r, &off), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset(c, l, NULL, &off), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset(c, l, &r, NULL), CL_E_NULL);
  assert_null(r);
  cl_tuple_free(c);
  cl_layout_free(l);
}

static void test_rearranging_modes(void **state) {
  (void)state;
  expect_layout1(cl_layout_flatten, "((2,3),(2,(4,1))):((1,2),(6,(12,0)))", "(2,3,2,4,1):(1,2,6,12,0)");
  expect_layout1(cl_layout_flatten, "8:1", "8:1");
  expect_layout1(cl_layout_flatten, "():()", "():()");
  expect_layout1(cl_layout_zip, "((2,3),(4,5)):((1,2),(6,24))", "((2,4),(3,5)):((1,6),(2,24))");
  expect_layout1(cl_layout_zip, "(2,3):(1,2)", "((2,3)):((1,2))");
  expect_layout1(cl_layout_zip, "8:1", "8:1");
  expect_layout1_fails(cl_layout_zip, "((2,3),(4,5,6)):((1,2),(3,4,5))", CL_E_RANK);
  expect_layout1_fails(cl_layout_zip, "():()", CL_E_RANK);

  cl_layout_t *l = lay("(2,3,4,5):(1,2,6,24)"), *r = NULL;
  static const struct { int64_t b, e; const char *group, *take; } ranges[] = {
    {0, 4, "((2,3,4,5)):((1,2,6,24))", "(2,3,4,5):(1,2,6,24)"},
    {1, 3, "(2,(3,4),5):(1,(2,6),24)", "(3,4):(2,6)"},
    {3, 4, "(2,3,4,(5)):(1,2,6,(24))", "(5):(24)"},
    {2, 2, "(2,3,4,5):(1,2,6,24)", NULL},
    {1, -1, "(2,(3,4,5)):(1,(2,6,24))", NULL}, /* CuTe's group<B,-1> runs to the end; take<B,-1> is no range */
  };
  for (size_t i = 0; i < COUNT_OF(ranges); i++) {
    assert_int_equal(cl_layout_group(l, ranges[i].b, ranges[i].e, &r), CL_OK);
    assert_layout_is(r, ranges[i].group);
    cl_layout_free(r);
    r = (cl_layout_t *)1;
    if (ranges[i].take == NULL) {
      assert_int_equal(cl_layout_take(l, ranges[i].b, ranges[i].e, &r), CL_E_DOMAIN);
      assert_null(r);
      continue;
    }
    assert_int_equal(cl_layout_take(l, ranges[i].b, ranges[i].e, &r), CL_OK);
    assert_layout_is(r, ranges[i].take);
    cl_layout_free(r);
  }
  static const int64_t bad_ranges[][2] = {{3, 2}, {0, 5}, {-1, 2}, {5, 5}, {2, -2}};
  for (size_t i = 0; i < COUNT_OF(bad_ranges); i++) {
    r = (cl_layout_t *)1;
    assert_int_equal(cl_layout_group(l, bad_ranges[i][0], bad_ranges[i][1], &r), CL_E_DOMAIN);
    assert_null(r);
    r = (cl_layout_t *)1;
    assert_int_equal(cl_layout_take(l, bad_ranges[i][0], bad_ranges[i][1], &r), CL_E_DOMAIN);
    assert_null(r);
  }
  const int64_t modes[] = {3, 0, 0}, bad_mode[] = {4};
  assert_int_equal(cl_layout_select(l, modes, 3, &r), CL_OK);
  assert_layout_is(r, "(5,2,2):(24,1,1)");
  cl_layout_free(r);
  assert_int_equal(cl_layout_select(l, NULL, 0, &r), CL_OK);
  assert_layout_is(r, "():()");
  cl_layout_free(r);
  assert_int_equal(cl_layout_select(l, bad_mode, 1, &r), CL_E_DOMAIN);
  assert_null(r);

  cl_layout_t *x = lay("(6,7):(100,700)");
  assert_int_equal(cl_layout_append(l, x, &r), CL_OK);
  assert_layout_is(r, "(2,3,4,5,(6,7)):(1,2,6,24,(100,700))");
  cl_layout_free(r);
  assert_int_equal(cl_layout_prepend(l, x, &r), CL_OK);
  assert_layout_is(r, "((6,7),2,3,4,5):((100,700),1,2,6,24)");
  cl_layout_free(r);
  assert_int_equal(cl_layout_append(l, NULL, &r), CL_OK);
  assert_layout_is(r, "(2,3,4,5,1):(1,2,6,24,0)");
  cl_layout_free(r);

  cl_tuple_t *profile = tup("((0,0),(0,0))"), *short_profile = tup("(0,0)");
  assert_int_equal(cl_layout_unflatten(l, profile, &r), CL_OK);
  assert_layout_is(r, "((2,3),(4,5)):((1,2),(6,24))");
  cl_layout_free(r);
  assert_int_equal(cl_layout_unflatten(l, short_profile, &r), CL_E_RANK);
  assert_null(r);

  /* NULL arguments. */
  assert_int_equal(cl_layout_flatten(NULL, &r), CL_E_NULL);
  assert_int_equal(cl_layout_flatten(l, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_zip(NULL, &r), CL_E_NULL);
  assert_int_equal(cl_layout_unflatten(NULL, profile, &r), CL_E_NULL);
  assert_int_equal(cl_layout_unflatten(l, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_layout_unflatten(l, profile, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_group(NULL, 0, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_group(l, 0, 1, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_take(NULL, 0, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_take(l, 0, 1, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_select(NULL, modes, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_select(l, NULL, 1, &r), CL_E_NULL);
  assert_int_equal(cl_layout_select(l, modes, 1, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_append(NULL, x, &r), CL_E_NULL);
  assert_int_equal(cl_layout_append(l, x, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_prepend(NULL, x, &r), CL_E_NULL);
  assert_int_equal(cl_layout_prepend(l, x, NULL), CL_E_NULL);
  assert_null(r);
  cl_tuple_free(profile);
  cl_tuple_free(short_profile);
  cl_layout_free(x);
  cl_layout_free(l);
}

/* ------------------------------------------------------- properties */

typedef struct {
  int layouts, points;
} stats;

/* The definition: split i colexicographically over the flattened shape (the
 * last leaf keeps the rest) and sum digit * stride. */
static int64_t reference_eval(const int64_t *extent, const int64_t *stride, int64_t n, int64_t i) {
  int64_t sum = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t digit = (k == n - 1 || i == 0) ? i : i % extent[k];
    if (k < n - 1 && i != 0)
      i /= extent[k];
    else if (k < n - 1)
      i = 0;
    sum += digit * stride[k];
  }
  return sum;
}

static int64_t leaf_values(const cl_tuple_t *t, int64_t *out) {
  cl_tuple_t *flat = NULL;
  assert_int_equal(cl_tuple_flatten(t, &flat), CL_OK);
  int64_t n = cl_tuple_rank(flat);
  for (int64_t k = 0; k < n; k++) {
    cl_tuple_t *e = NULL;
    assert_int_equal(cl_tuple_get(flat, &k, cl_tuple_kind(flat) == CL_KIND_TUPLE, &e), CL_OK);
    assert_int_equal(cl_tuple_value(e, &out[k]), CL_OK);
    cl_tuple_free(e);
  }
  cl_tuple_free(flat);
  return n;
}

/* Every property of one layout L:
 * - L(i) is the colexicographic definition, for i in [0, size] and beyond;
 * - L(idx2crd(i, shape)) == L(i): hierarchical coordinates agree;
 * - format/parse round trip, and flatten/group preserve L(i);
 * - slice_and_offset with '_' in one top mode reconstructs L: for every value
 *   j of the other modes' coordinate, sub(k) + offset == L(k, j);
 * - cosize is 1 + max L(i) - min L(i) when all strides have one sign. */
static void check_layout(const char *text, void *ctx) {
  stats *st = ctx;
  cl_layout_t *l = lay(text), *again = NULL, *flat = NULL, *grouped = NULL;
  assert_string_equal(layout_text(l), text);
  assert_int_equal(cl_layout_parse(layout_text(l), &again), CL_OK);
  assert_true(cl_layout_equal(l, again));
  cl_tuple_t *shape = NULL, *stride = NULL;
  assert_int_equal(cl_layout_shape(l, &shape), CL_OK);
  assert_int_equal(cl_layout_stride(l, &stride), CL_OK);
  int64_t extent[8], strides[8];
  int64_t n = leaf_values(shape, extent);
  assert_int_equal(leaf_values(stride, strides), n);
  int64_t size = cl_layout_size(l), rank = cl_layout_rank(l);
  assert_int_equal(cl_layout_flatten(l, &flat), CL_OK);
  assert_int_equal(cl_layout_group(l, 0, rank, &grouped), CL_OK);
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int64_t i = 0; i <= size + 2; i++) {
    int64_t v = 0, w = 0;
    assert_int_equal(cl_layout_eval(l, i, &v), CL_OK);
    assert_int_equal(v, reference_eval(extent, strides, n, i));
    assert_int_equal(cl_layout_eval(flat, i, &w), CL_OK);
    assert_int_equal(w, v);
    assert_int_equal(cl_layout_eval(grouped, i, &w), CL_OK);
    assert_int_equal(w, v);
    cl_tuple_t *idx = NULL, *crd = NULL;
    assert_int_equal(cl_tuple_int(i, &idx), CL_OK);
    assert_int_equal(cl_layout_eval_coord(l, idx, &w), CL_OK);
    assert_int_equal(w, v);
    if (i < size) {
      assert_int_equal(cl_idx2crd(idx, shape, &crd), CL_OK);
      assert_int_equal(cl_layout_eval_coord(l, crd, &w), CL_OK);
      assert_int_equal(w, v);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    cl_tuple_free(idx);
    cl_tuple_free(crd);
    st->points++;
  }
  bool one_sign = true;
  for (int64_t k = 0; k < n; k++)
    one_sign = one_sign && (strides[k] >= 0) == (strides[0] >= 0);
  if (size > 0 && one_sign)
    assert_int_equal(cl_layout_cosize(l), hi - lo + 1);

  /* Slice out each top mode m: crd = (j_0, ..., _, ..., j_R-1). */
  for (int64_t m = 0; m < rank && rank > 1; m++) {
    cl_layout_t *mode = NULL, *sub = NULL;
    assert_int_equal(cl_layout_get(l, &m, 1, &mode), CL_OK);
    int64_t mode_size = cl_layout_size(mode), other = size / (mode_size ? mode_size : 1);
    for (int64_t j = 0; j < other && mode_size > 0; j++) {
      /* The integer coordinate of each other mode, from j colexicographically. */
      char crd_text[128] = "(", full_text[128];
      int64_t rest = j;
      for (int64_t k = 0; k < rank; k++) {
        cl_layout_t *mk = NULL;
        assert_int_equal(cl_layout_get(l, &k, 1, &mk), CL_OK);
        int64_t ks = cl_layout_size(mk);
        cl_layout_free(mk);
        char part[24];
        if (k == m) {
          snprintf(part, sizeof part, "_");
        } else {
          snprintf(part, sizeof part, "%lld", (long long)(rest % ks));
          rest /= ks;
        }
        strcat(crd_text, k ? "," : "");
        strcat(crd_text, part);
      }
      strcat(crd_text, ")");
      cl_tuple_t *crd = tup(crd_text);
      int64_t offset = 0;
      assert_int_equal(cl_layout_slice_and_offset(crd, l, &sub, &offset), CL_OK);
      assert_int_equal(cl_layout_size(sub), mode_size);
      for (int64_t k = 0; k < mode_size; k++) {
        int64_t got = 0, want = 0;
        assert_int_equal(cl_layout_eval(sub, k, &got), CL_OK);
        /* Put k at the '_' of the coordinate. */
        const char *hole = strchr(crd_text, '_');
        snprintf(full_text, sizeof full_text, "%.*s%lld%s", (int)(hole - crd_text), crd_text, (long long)k, hole + 1);
        cl_tuple_t *full = tup(full_text);
        assert_int_equal(cl_layout_eval_coord(l, full, &want), CL_OK);
        assert_int_equal(got + offset, want);
        cl_tuple_free(full);
      }
      cl_layout_free(sub);
      cl_tuple_free(crd);
    }
    cl_layout_free(mode);
  }
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_layout_free(flat);
  cl_layout_free(grouped);
  cl_layout_free(again);
  cl_layout_free(l);
  st->layouts++;
}

static void test_layout_properties(void **state) {
  (void)state;
  static const int extents[] = {1, 2, 3};
  static const int strides[] = {0, 1, -2, 5};
  stats st = {0, 0};
  int count = for_each_small_layout(extents, 3, strides, 4, check_layout, &st);
  assert_int_equal(st.layouts, count);
  assert_true(count > 5000);
  assert_true(st.points > 50000);
}

/* Leaves [from, n) with extent > 1 have pairwise distinct strides (ties in
 * the order give equal compact strides, which CuTe does not separate). */
static bool distinct_strides(const int64_t *extent, const int64_t *stride, int64_t from, int64_t n, bool skip_zero) {
  for (int64_t a = from; a < n; a++)
    for (int64_t b = a + 1; b < n; b++)
      if (extent[a] > 1 && extent[b] > 1 && stride[a] == stride[b] && !(skip_zero && stride[a] == 0))
        return false;
  return true;
}

/* make_layout_like and make_fragment_like are compact: their images are
 * [0, M) with every index hit equally often, where M is the size without the
 * broadcast (stride-0) modes they keep; and they keep the size. */
static void check_like(const char *text, void *ctx) {
  stats *st = ctx;
  cl_layout_t *l = lay(text), *like = NULL, *frag = NULL, *mode0 = NULL;
  assert_int_equal(cl_make_layout_like(l, &like), CL_OK);
  assert_int_equal(cl_make_fragment_like(l, &frag), CL_OK);
  cl_tuple_t *shape = NULL, *stride = NULL, *shape0 = NULL;
  assert_int_equal(cl_layout_shape(l, &shape), CL_OK);
  assert_int_equal(cl_layout_stride(l, &stride), CL_OK);
  int64_t extent[8], strides[8], zero = 0, leaves0[8];
  int64_t n = leaf_values(shape, extent);
  leaf_values(stride, strides);
  assert_int_equal(cl_layout_get(l, &zero, 1, &mode0), CL_OK);
  assert_int_equal(cl_layout_shape(mode0, &shape0), CL_OK);
  int64_t n0 = leaf_values(shape0, leaves0);
  bool checkable[2] = {distinct_strides(extent, strides, 0, n, true),
                       cl_layout_rank(l) <= 1 || distinct_strides(extent, strides, n0, n, false)};
  cl_layout_t *variants[] = {like, frag};
  int64_t size = cl_layout_size(l);
  for (int v = 0; v < 2; v++) {
    assert_int_equal(cl_layout_size(variants[v]), size);
    if (size == 0 || !checkable[v])
      continue;
    int64_t *hits = calloc((size_t)size, sizeof *hits), max = 0;
    assert_non_null(hits);
    for (int64_t i = 0; i < size; i++) {
      int64_t x = -1;
      assert_int_equal(cl_layout_eval(variants[v], i, &x), CL_OK);
      assert_true(x >= 0 && x < size);
      hits[x]++;
      max = x > max ? x : max;
    }
    for (int64_t x = 0; x <= max; x++)
      assert_int_equal(hits[x] * (max + 1), size);
    free(hits);
    st->points++;
  }
  cl_layout_free(like);
  cl_layout_free(frag);
  cl_layout_free(mode0);
  cl_layout_free(l);
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_tuple_free(shape0);
  st->layouts++;
}

static void test_like_properties(void **state) {
  (void)state;
  static const int extents[] = {1, 2, 3};
  static const int strides[] = {0, 1, -1, 4};
  stats st = {0, 0};
  for_each_small_layout(extents, 3, strides, 4, check_like, &st);
  assert_true(st.layouts > 5000);
}

/* ------------------------------------------------------- dice, replace, append<N>, domain_offset */

static void test_dice(void **state) {
  (void)state;
  cl_layout_t *l = lay("((2,3),(2,4)):((1,2),(6,12))"), *r = NULL;
  /* dice keeps what slice drops: the integer positions, in order. */
  static const struct { const char *crd, *dice; } cases[] = {
    {"_", "():()"},
    {"(_,5)", "((2,4)):((6,12))"},
    {"(3,_)", "((2,3)):((1,2))"},
    {"((1,_),(_,2))", "(2,4):(1,12)"},
    {"((_,2),_)", "(3):(2)"},
    {"(1,2)", "((2,3),(2,4)):((1,2),(6,12))"},
    {"7", "((2,3),(2,4)):((1,2),(6,12))"},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_tuple_t *c = tup(cases[i].crd);
    assert_int_equal(cl_layout_dice(c, l, &r), CL_OK);
    assert_layout_is(r, cases[i].dice);
    cl_layout_free(r);
    cl_tuple_free(c);
  }
  static const char *const bad[] = {"(_,_,_)", "((_,_,_),1)", "(2:1,_)"};
  for (size_t i = 0; i < COUNT_OF(bad); i++) {
    cl_tuple_t *c = tup(bad[i]);
    r = (cl_layout_t *)1;
    assert_true(cl_layout_dice(c, l, &r) < 0);
    assert_null(r);
    cl_tuple_free(c);
  }
  /* of tuples */
  cl_tuple_t *c = tup("((1,_),(_,2))"), *t = tup("((2,3),(2,4))"), *x = NULL;
  assert_int_equal(cl_tuple_slice(c, t, &x), CL_OK);
  assert_tuple_is(x, "(3,2)");
  cl_tuple_free(x);
  assert_int_equal(cl_tuple_dice(c, t, &x), CL_OK);
  assert_tuple_is(x, "(2,4)");
  cl_tuple_free(x);
  cl_tuple_free(c);
  c = tup("_");
  assert_int_equal(cl_tuple_slice(c, t, &x), CL_OK);
  assert_tuple_is(x, "((2,3),(2,4))");
  cl_tuple_free(x);
  assert_int_equal(cl_tuple_dice(c, t, &x), CL_OK);
  assert_tuple_is(x, "()");
  cl_tuple_free(x);
  x = (cl_tuple_t *)1;
  assert_int_equal(cl_tuple_dice(NULL, t, &x), CL_E_NULL);
  assert_null(x);
  assert_int_equal(cl_tuple_slice(c, NULL, &x), CL_E_NULL);
  assert_int_equal(cl_tuple_slice(c, t, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_dice(NULL, l, &r), CL_E_NULL);
  assert_int_equal(cl_layout_dice(c, NULL, &r), CL_E_NULL);
  cl_tuple_free(c);
  c = tup("(1,_,2)");
  x = (cl_tuple_t *)1;
  assert_int_equal(cl_tuple_dice(c, t, &x), CL_E_RANK);
  assert_null(x);
  cl_tuple_free(c);
  cl_tuple_free(t);
  cl_layout_free(l);
}

/* slice and dice split a layout's leaves between them: their sizes multiply
 * to L's, and L(crd with its '_' replaced by j) = slice(j) + dice(crd). */
static void check_slice_dice(const char *text, void *ctx) {
  stats *st = ctx;
  cl_layout_t *l = lay(text);
  cl_tuple_t *shape = NULL;
  assert_int_equal(cl_layout_shape(l, &shape), CL_OK);
  /* the coordinates: each top-level mode '_' or 0 or its last index */
  int64_t rank = cl_layout_rank(l);
  if (rank > 3) {
    cl_tuple_free(shape);
    cl_layout_free(l);
    return;
  }
  int patterns = 1;
  for (int64_t m = 0; m < rank; m++)
    patterns *= 2;
  for (int p = 0; p < patterns; p++) {
    char crd[64] = "";
    size_t len = 0;
    bool tuple = cl_tuple_kind(shape) == CL_KIND_TUPLE;
    if (tuple)
      crd[len++] = '(';
    for (int64_t m = 0; m < rank; m++) {
      int64_t mode = m, extent = 0;
      cl_tuple_t *sub = NULL;
      if (tuple)
        assert_int_equal(cl_tuple_get(shape, &mode, 1, &sub), CL_OK);
      assert_int_equal(cl_tuple_product(tuple ? sub : shape, &extent), CL_OK);
      cl_tuple_free(sub);
      len += (size_t)snprintf(crd + len, sizeof crd - len, "%s", m ? "," : "");
      if (p >> m & 1)
        len += (size_t)snprintf(crd + len, sizeof crd - len, "_");
      else
        len += (size_t)snprintf(crd + len, sizeof crd - len, "%lld", (long long)(extent - 1));
    }
    if (tuple)
      crd[len++] = ')';
    crd[len] = '\0';
    cl_tuple_t *c = tup(crd);
    cl_layout_t *sl = NULL, *dl = NULL;
    int64_t offset = 0;
    assert_int_equal(cl_layout_slice_and_offset(c, l, &sl, &offset), CL_OK);
    assert_int_equal(cl_layout_dice(c, l, &dl), CL_OK);
    int64_t ls = cl_layout_size(l), ss = 1, ds = 1;
    cl_tuple_t *s_shape = NULL, *d_shape = NULL;
    assert_int_equal(cl_layout_shape(sl, &s_shape), CL_OK);
    assert_int_equal(cl_layout_shape(dl, &d_shape), CL_OK);
    assert_int_equal(cl_tuple_product(s_shape, &ss), CL_OK);
    assert_int_equal(cl_tuple_product(d_shape, &ds), CL_OK);
    assert_int_equal(ss * ds, ls);
    /* the dice's own coordinate (the integers of crd) gives the offset */
    cl_tuple_t *dc = NULL;
    assert_int_equal(cl_tuple_dice(c, c, &dc), CL_OK);
    if (ds > 0 && cl_tuple_kind(d_shape) == CL_KIND_TUPLE && cl_tuple_rank(d_shape) > 0) {
      int64_t at = 0;
      assert_int_equal(cl_layout_eval_coord(dl, dc, &at), CL_OK);
      assert_int_equal(at, offset);
    }
    cl_tuple_free(dc);
    cl_tuple_free(s_shape);
    cl_tuple_free(d_shape);
    cl_layout_free(sl);
    cl_layout_free(dl);
    cl_tuple_free(c);
    st->points++;
  }
  cl_tuple_free(shape);
  cl_layout_free(l);
  st->layouts++;
}

static void test_slice_dice_properties(void **state) {
  (void)state;
  static const int extents[] = {1, 2, 3};
  static const int strides[] = {0, 1, 5};
  stats st = {0, 0};
  for_each_small_layout(extents, 3, strides, 3, check_slice_dice, &st);
  assert_true(st.points > 1000);
}

static void test_replace_append_to(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,3,4):(1,2,6)"), *x = lay("(5,6):(1,5)"), *r = NULL;
  assert_int_equal(cl_layout_replace(l, 1, x, &r), CL_OK);
  assert_layout_is(r, "(2,(5,6),4):(1,(1,5),6)");
  cl_layout_free(r);
  assert_int_equal(cl_layout_replace(l, 3, x, &r), CL_E_DOMAIN);
  assert_null(r);
  assert_int_equal(cl_layout_replace(l, -1, x, &r), CL_E_DOMAIN);
  cl_layout_t *one = lay("8:1");
  assert_int_equal(cl_layout_replace(one, 0, x, &r), CL_OK);
  assert_layout_is(r, "(5,6):(1,5)");
  cl_layout_free(r);
  assert_int_equal(cl_layout_replace(NULL, 0, x, &r), CL_E_NULL);
  assert_int_equal(cl_layout_replace(l, 0, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_layout_replace(l, 0, x, NULL), CL_E_NULL);
  /* append<N> pads with copies of X */
  assert_int_equal(cl_layout_append_to(l, x, 5, &r), CL_OK);
  assert_layout_is(r, "(2,3,4,(5,6),(5,6)):(1,2,6,(1,5),(1,5))");
  cl_layout_free(r);
  assert_int_equal(cl_layout_prepend_to(l, NULL, 4, &r), CL_OK);
  assert_layout_is(r, "(1,2,3,4):(0,1,2,6)");
  cl_layout_free(r);
  assert_int_equal(cl_layout_append_to(l, x, 3, &r), CL_OK);
  assert_layout_is(r, "(2,3,4):(1,2,6)");
  cl_layout_free(r);
  assert_int_equal(cl_layout_append_to(one, x, 1, &r), CL_OK);
  assert_layout_is(r, "8:1");
  cl_layout_free(r);
  assert_int_equal(cl_layout_append_to(one, x, 2, &r), CL_OK);
  assert_layout_is(r, "(8,(5,6)):(1,(1,5))");
  cl_layout_free(r);
  assert_int_equal(cl_layout_append_to(l, x, 2, &r), CL_E_DOMAIN);
  assert_null(r);
  assert_int_equal(cl_layout_prepend_to(l, x, CL_MAX_RANK + 1, &r), CL_E_LIMIT);
  assert_int_equal(cl_layout_append_to(NULL, x, 3, &r), CL_E_NULL);
  /* replace<i>(append<n>(L, X), i) for the appended i is L padded */
  assert_int_equal(cl_layout_append_to(l, one, 4, &r), CL_OK);
  cl_layout_t *r2 = NULL;
  assert_int_equal(cl_layout_replace(r, 3, x, &r2), CL_OK);
  cl_layout_t *direct = NULL;
  assert_int_equal(cl_layout_append(l, x, &direct), CL_OK);
  assert_string_equal(layout_text(r2), layout_text(direct));
  cl_layout_free(r);
  cl_layout_free(r2);
  cl_layout_free(direct);
  /* domain_offset: the layout as it is, and L(crd) */
  cl_tuple_t *crd = tup("(1,2,3)"), *co = NULL;
  int64_t offset = -1;
  assert_int_equal(cl_domain_offset(crd, l, &r, &offset), CL_OK);
  assert_layout_is(r, "(2,3,4):(1,2,6)");
  assert_int_equal(offset, 1 + 4 + 18);
  cl_layout_free(r);
  cl_tuple_t *bad = tup("(1,2)");
  offset = -1;
  assert_int_equal(cl_domain_offset(bad, l, &r, &offset), CL_E_RANK);
  assert_null(r);
  assert_int_equal(offset, 0);
  assert_int_equal(cl_domain_offset(NULL, l, &r, &offset), CL_E_NULL);
  assert_int_equal(cl_domain_offset(crd, l, &r, NULL), CL_E_NULL);
  /* coprofile of an integer-strided layout */
  assert_int_equal(cl_layout_coprofile(l, &co), CL_OK);
  assert_tuple_is(co, "0");
  cl_tuple_free(co);
  assert_int_equal(cl_layout_coprofile(NULL, &co), CL_E_NULL);
  assert_null(co);
  cl_tuple_free(crd);
  cl_tuple_free(bad);
  cl_layout_free(one);
  cl_layout_free(x);
  cl_layout_free(l);
}

/* Issue 23: a shape's extents are integers >= 0.  A negative one means
 * nothing to CuTe (which computes on with it), so every way a shape comes in
 * refuses it with CL_E_DOMAIN and says which extent; 0 is an empty mode,
 * which CuTe allows (make_layout(Int<0>{}) is _0:_1). */
static void negative_extent_refused(cl_status s, const void *result, const char *extent) {
  assert_int_equal(s, CL_E_DOMAIN);
  assert_null(result);
  if (strstr(cl_last_error(), extent) == NULL || strstr(cl_last_error(), "negative extent") == NULL)
    fail_msg("message '%s' does not name the negative extent %s", cl_last_error(), extent);
}
/* The result is read after the call has stored it. */
#define expect_negative_extent(call, result, extent)   \
  do {                                                 \
    cl_status s_ = (call);                             \
    negative_extent_refused(s_, (result), (extent));   \
  } while (0)

static void test_negative_extents_are_refused(void **state) {
  (void)state;
  cl_layout_t *l = (cl_layout_t *)1;
  cl_tuple_t *t = (cl_tuple_t *)1;
  expect_negative_extent(cl_layout_parse("-4:1", &l), l, "-4");
  assert_non_null(strstr(cl_last_error(), "column 1:"));
  expect_negative_extent(cl_layout_parse("(2,(3,-1)):(1,(2,6))", &l), l, "-1");
  expect_negative_extent(cl_tuple_parse("(2:1,-4:1)", &t), t, "-4"); /* a tiler holding a layout */
  cl_tuple_t *shape = tup("(2,-3)"), *stride = tup("(1,2)"), *order = tup("(1,0)"), *idx = tup("5");
  expect_negative_extent(cl_layout_make(shape, stride, &l), l, "-3");
  expect_negative_extent(cl_layout_make(shape, NULL, &l), l, "-3");
  expect_negative_extent(cl_layout_make_left(shape, &l), l, "-3");
  expect_negative_extent(cl_layout_make_right(shape, &l), l, "-3");
  expect_negative_extent(cl_layout_make_ordered(shape, order, &l), l, "-3");
  expect_negative_extent(cl_make_identity_layout(shape, &l), l, "-3");
  expect_negative_extent(cl_compact_col_major(shape, &t), t, "-3");
  expect_negative_extent(cl_compact_row_major(shape, &t), t, "-3");
  expect_negative_extent(cl_compact_order(shape, order, &t), t, "-3");
  expect_negative_extent(cl_idx2crd(idx, shape, &t), t, "-3");
  expect_negative_extent(cl_idx2crd_strided(idx, shape, stride, &t), t, "-3");
  int64_t index = 0;
  assert_int_equal(cl_crd2idx_shape(stride, shape, &index), CL_E_DOMAIN);
  assert_int_equal(cl_crd2idx(stride, shape, stride, &index), CL_E_DOMAIN);
  cl_tuple_t *good = tup("(2,3)");
  expect_negative_extent(cl_crd2crd(stride, shape, good, &t), t, "-3");
  expect_negative_extent(cl_crd2crd(stride, good, shape, &t), t, "-3");
  cl_layout_t *block = lay("2:1");
  expect_negative_extent(cl_tile_to_shape(block, shape, NULL, &l), l, "-3");
  expect_negative_extent(cl_complement_shape(block, shape, &l), l, "-3");
  expect_negative_extent(cl_complement(block, -8, &l), l, "-8");
  /* An integer in a tiler is the layout N:1. */
  cl_tuple_t *tiler = tup("-2");
  cl_layout_t *eight = lay("8:1");
  expect_negative_extent(cl_logical_divide_tiler(eight, tiler, &l), l, "-2");
  cl_layout_free(eight);
  cl_tuple_free(tiler);
  /* Not integers at all: a type error, as before. */
  cl_tuple_t *holey = tup("(2,_)");
  assert_int_equal(cl_layout_make_left(holey, &l), CL_E_TYPE);
  assert_null(l);
  cl_tuple_free(holey);
  /* Extent 0 is an empty mode. */
  cl_tuple_t *empty = tup("(0,3)");
  assert_int_equal(cl_layout_make_left(empty, &l), CL_OK);
  assert_layout_is(l, "(0,3):(1,0)");
  cl_layout_free(l);
  cl_tuple_free(empty);
  cl_layout_free(block);
  cl_tuple_free(good);
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_tuple_free(order);
  cl_tuple_free(idx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden_answers_of_cute),
    cmocka_unit_test(test_construction),
    cmocka_unit_test(test_concat_and_copy),
    cmocka_unit_test(test_like),
    cmocka_unit_test(test_queries),
    cmocka_unit_test(test_get),
    cmocka_unit_test(test_eval),
    cmocka_unit_test(test_slice),
    cmocka_unit_test(test_rearranging_modes),
    cmocka_unit_test(test_layout_properties),
    cmocka_unit_test(test_like_properties),
    cmocka_unit_test(test_dice),
    cmocka_unit_test(test_slice_dice_properties),
    cmocka_unit_test(test_replace_append_to),
    cmocka_unit_test(test_negative_extents_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
