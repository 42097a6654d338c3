# SPDX-License-Identifier: BSD-3-Clause
"""The Python package's view of the C API is the headers':

  - cutelayout/_capi.py is what gen_capi.py makes of the headers today
    (a stale file fails, naming the command that refreshes it);
  - every parameter and return type of every function has a ctypes type;
  - the ctypes structs have the C structs' sizes and field offsets, as the C
    compiler lays them out (a program compiled against the headers prints
    them).

    python3 test_capi.py --cc CC... --include INCLUDE_DIR
"""
import argparse
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
from cutelayout import _capi, _ffi  # noqa: E402  (the package under test, from PYTHONPATH)

sys.path.append(PYTHON_DIR)  # gen_capi.py, after the package under test
import gen_capi  # noqa: E402

ARGS = None


class CApi(unittest.TestCase):
    def test_capi_matches_the_headers(self):
        headers = os.path.join(ARGS.include, 'cutelayout')
        with open(os.path.join(PYTHON_DIR, 'cutelayout', '_capi.py'), encoding='utf-8') as f:
            committed = f.read()
        self.assertEqual(committed, gen_capi.generate(headers),
                         'cutelayout/_capi.py is stale: run python3 bindings/python/gen_capi.py')
        # The package under test carries the same table.
        with open(_capi.__file__, encoding='utf-8') as f:
            self.assertEqual(f.read(), committed)

    def test_every_type_has_a_ctypes_type(self):
        for name, (ret, params) in _capi.FUNCTIONS.items():
            try:
                _ffi.ctype(ret, result=True)
                for p in params:
                    _ffi.ctype(p)
            except KeyError as e:
                self.fail('%s: no ctypes type for %s (add it to cutelayout/_ffi.py)' % (name, e))

    def test_structs_have_the_headers_members(self):
        self.assertEqual(set(_ffi.STRUCTS), set(_capi.STRUCTS))
        for name, members in _capi.STRUCTS.items():
            self.assertEqual(tuple(f for f, _ in _ffi.STRUCTS[name]._fields_), members, name)

    def test_compiled_layouts_evaluate_in_c(self):
        # The bytes of Layout.compile(), read by compiled.h's inline
        # cl_compiled_eval in a C program, give the layout's values.
        import cutelayout as cl
        source = r'''
#include <stdio.h>
#include <cutelayout/cutelayout.h>
int main(void) {
  cl_compiled_layout_t c;
  while (fread(&c, sizeof c, 1, stdin) == 1) {
    for (int64_t i = 0; i < c.size; i++)
      printf("%lld ", (long long)cl_compiled_eval(&c, i));
    printf("\n");
  }
  return 0;
}
'''
        cases = [cl.Layout(t) for t in ['(2,(2,2)):(4,(2,1))', '(3,5,7):(35,7,1)', '(4,8):(-1,4)', '7:0', '(16,4):(1,64)']]
        cases.append(cl.ComposedLayout('Sw<3,3,3> o 4 o (8,8):(8,1)'))
        with tempfile.TemporaryDirectory() as tmp:
            c, exe = os.path.join(tmp, 'eval.c'), os.path.join(tmp, 'eval')
            with open(c, 'w', encoding='utf-8') as f:
                f.write(source)
            subprocess.run(ARGS.cc + ['-I', ARGS.include, c, '-o', exe], check=True)
            out = subprocess.run([exe], input=b''.join(bytes(x.compile()) for x in cases), check=True,
                                 stdout=subprocess.PIPE).stdout.decode().split('\n')
        for x, line in zip(cases, out):
            self.assertEqual([int(v) for v in line.split()], list(x), str(x))

    def test_structs_are_the_c_structs(self):
        lines = ['#include <stddef.h>', '#include <stdio.h>', '#include <cutelayout/cutelayout.h>',
                 'int main(void) {']
        expected = []
        for name, struct in sorted(_ffi.STRUCTS.items()):
            lines.append('  printf("%%s %%zu\\n", "%s", sizeof(%s));' % (name, name))
            expected.append('%s %d' % (name, _ffi.ctypes.sizeof(struct)))
            for field, _ in struct._fields_:
                lines.append('  printf("%%s.%%s %%zu\\n", "%s", "%s", offsetof(%s, %s));' % (name, field, name, field))
                expected.append('%s.%s %d' % (name, field, getattr(struct, field).offset))
        lines += ['  return 0;', '}']
        with tempfile.TemporaryDirectory() as tmp:
            source, exe = os.path.join(tmp, 'layout.c'), os.path.join(tmp, 'layout')
            with open(source, 'w', encoding='utf-8') as f:
                f.write('\n'.join(lines) + '\n')
            subprocess.run(ARGS.cc + ['-I', ARGS.include, source, '-o', exe], check=True)
            out = subprocess.run([exe], check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
        self.assertEqual(out.split('\n')[:-1], expected)

    def test_constants_are_the_libraries(self):
        self.assertEqual(_ffi.capi.cl_abi_version(), _capi.CONSTANTS['CL_ABI_VERSION'])
        for name, value in _capi.CONSTANTS.items():
            if name.startswith('CL_E_'):
                self.assertNotEqual(_ffi.capi.cl_status_string(value), _ffi.capi.cl_status_string(-999), name)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cc', nargs='+', required=True)
    ap.add_argument('--include', required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
