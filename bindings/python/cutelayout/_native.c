/* SPDX-License-Identifier: BSD-3-Clause */
/* cutelayout._native: the package's floor on libcutelayout through CPython's
 * C API, for the calls whose cost is the binding's, not the library's: a
 * Layout's construction from Python tuples, L(i), its text, its queries and
 * the algebra on two layouts.  ctypes spends a microsecond or more per call
 * marshalling arguments; here a call costs what the library's does plus a few
 * object allocations.
 *
 * It defines two types, which the Python layers subclass:
 *   Layout  owns a cl_layout_t; Layout(shape, stride=None) from int tuples,
 *           a LayoutLeft/LayoutRight tag, a Layout or its text;
 *   Tuple   owns a cl_tuple_t made from a Python value (the argument of the
 *           C functions that take a `const cl_tuple_t *`);
 * both with `_as_parameter_` (the handle's address) so that the ctypes layer
 * passes them to any C function, and `_adopt(handle)` to wrap a handle that
 * a ctypes call returned.  register() receives the Python objects the
 * conversions need (CuTe's `_`, ScaledBasis, the stride tags, the exception
 * factory), which live on higher floors. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cutelayout/cutelayout.h>
#include <stdint.h>
#include <string.h>

#if PY_VERSION_HEX < 0x030A0000  /* Python 3.7 to 3.9 */
static inline PyObject *Py_NewRef(PyObject *o) {
  Py_INCREF(o);
  return o;
}
static int PyModule_AddObjectRef(PyObject *m, const char *name, PyObject *o) {
  Py_INCREF(o);
  if (PyModule_AddObject(m, name, o) == 0)
    return 0;
  Py_DECREF(o);
  return -1;
}
#endif
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *Py_XNewRef(PyObject *o) {
  Py_XINCREF(o);
  return o;
}
#endif
#if PY_VERSION_HEX < 0x03090000
#define PyObject_CallOneArg(f, a) PyObject_CallFunctionObjArgs((f), (a), NULL)
#endif

/* ------------------------------------------------------------ registered */

static PyObject *make_error;       /* make_error(status, detail) -> exception instance */
static PyObject *underscore;       /* CuTe's `_` */
static PyObject *scaled_basis;     /* the ScaledBasis class */
static PyObject *layout_left;      /* the LayoutLeft tag */
static PyObject *layout_right;     /* the LayoutRight tag */
static PyObject *parse_value;      /* parse_value(text): the Python value of a tuple's text */
static PyObject *layout_class;     /* the package's Layout (a subclass that adds no __dict__ and no slots) */

static PyTypeObject LayoutType;
static PyTypeObject TupleType;

typedef struct {
  PyObject_HEAD
  cl_layout_t *handle;  /* NULL while deferred: made from shape and stride on first use (layout_defer) */
  int coordinate;       /* scaled-basis strides: L(i) is a tuple, not an int; -1: not yet asked */
  PyObject *weakrefs;
  PyObject *shape;      /* shape(L) and stride(L) as Python values, made on first use */
  PyObject *stride;     /* (a layout never changes; they hold no reference back to it) */
} LayoutObject;


/* Sets the exception of a failed library call (the package's class for the
 * status, with cl_last_error()'s detail); NULL for the caller to return. */
static PyObject *raise_status(cl_status status) {
  const char *detail = cl_last_error();
  PyObject *text = PyUnicode_DecodeUTF8(detail, (Py_ssize_t)strlen(detail), "replace");
  if (text == NULL)
    return NULL;
  if (make_error == NULL) {
    PyErr_Format(PyExc_ValueError, "%s: %U", cl_status_string(status), text);
    Py_DECREF(text);
    return NULL;
  }
  PyObject *exc = PyObject_CallFunction(make_error, "iO", (int)status, text);
  Py_DECREF(text);
  if (exc != NULL) {
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

/* A negative extent found before the library sees the shape: the same
 * exception (DomainError, CL_E_DOMAIN) and words as the library's check. */
static void raise_negative_extent(long long extent) {
  PyObject *text = PyUnicode_FromFormat(
      "a layout's shape has the negative extent %lld; a shape's extents are integers >= 0", extent);
  if (text == NULL)
    return;
  PyObject *exc = make_error == NULL ? NULL : PyObject_CallFunction(make_error, "iO", (int)CL_E_DOMAIN, text);
  if (exc != NULL) {
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  } else if (!PyErr_Occurred()) {
    PyErr_SetObject(PyExc_ValueError, text);
  }
  Py_DECREF(text);
}

static int fail_status(cl_status status) {
  raise_status(status);
  return -1;
}

/* ------------------------------------------------ Python value -> cl_tuple */

/* The int64_t of an integer leaf (no bool: True is not a shape). */
static int leaf_int(PyObject *o, int64_t *value) {
  if (PyBool_Check(o)) {
    PyErr_SetString(PyExc_TypeError, "a coordinate or shape is made of integers, not booleans");
    return -1;
  }
  PyObject *index = PyLong_CheckExact(o) ? Py_NewRef(o) : PyNumber_Index(o);
  if (index == NULL)
    return -1;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (v == -1 && PyErr_Occurred())
    return -1;
  if (overflow) {
    PyErr_Format(PyExc_OverflowError, "%R does not fit in a 64-bit integer", o);
    return -1;
  }
  *value = (int64_t)v;
  return 0;
}

static int is_integer(PyObject *o) { return PyLong_Check(o) || (!PyUnicode_Check(o) && PyIndex_Check(o)); }

static int is_underscore(PyObject *o) {
  if (o == Py_None || (underscore != NULL && o == underscore))
    return 1;
  if (PySlice_Check(o)) {
    PySliceObject *s = (PySliceObject *)o;
    return s->start == Py_None && s->stop == Py_None && s->step == Py_None;
  }
  return PyUnicode_Check(o) && PyUnicode_CompareWithASCIIString(o, "_") == 0;
}

/* 1 when a (nested) coordinate holds `_`, 0 if not, -1 on an error (too deep). */
static int has_underscore(PyObject *o) {
  if (!PyTuple_Check(o) && !PyList_Check(o))
    return is_underscore(o);
  if (Py_EnterRecursiveCall(" looking into a nested tuple"))
    return -1;
  int found = 0;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o) && found == 0; i++)
    found = has_underscore(PySequence_Fast_GET_ITEM(o, i));
  Py_LeaveRecursiveCall();
  return found;
}

/* The UTF-8 of a str that is to be C text: refused when it holds a NUL,
 * which would end the C string early and hide the rest. */
static const char *c_text(PyObject *s) {
  Py_ssize_t n = 0;
  const char *text = PyUnicode_AsUTF8AndSize(s, &n);
  if (text != NULL && strlen(text) != (size_t)n) {
    PyErr_SetString(PyExc_ValueError, "text with an embedded NUL character");
    return NULL;
  }
  return text;
}

static int basis_to_tuple(PyObject *o, cl_tuple_t **out) {
  int64_t scale, path[64];
  PyObject *s = PyObject_GetAttrString(o, "scale");
  if (s == NULL)
    return -1;
  int r = leaf_int(s, &scale);
  Py_DECREF(s);
  if (r < 0)
    return -1;
  PyObject *p = PyObject_GetAttrString(o, "path");
  if (p == NULL)
    return -1;
  PyObject *seq = PySequence_Fast(p, "a scaled basis's path is a tuple");
  Py_DECREF(p);
  if (seq == NULL)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > 64) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "a scaled basis's path is too long");
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (leaf_int(PySequence_Fast_GET_ITEM(seq, i), &path[i]) < 0) {
      Py_DECREF(seq);
      return -1;
    }
  Py_DECREF(seq);
  cl_status status = cl_tuple_basis(scale, path, (int64_t)n, out);
  return status < 0 ? fail_status(status) : 0;
}

/* Whether o is a ScaledBasis (or an error is set). */
static int is_basis(PyObject *o) { return scaled_basis != NULL && PyObject_IsInstance(o, scaled_basis) != 0; }

enum { SMALL = 16 };

static int value_to_tuple(PyObject *o, int shape, cl_tuple_t **out);
static int layout_ready(LayoutObject *self);

/* A tuple or list: one cl_tuple_from_ints when its elements are all
 * integers (the common case, and a single allocation), else its elements'
 * tuples made into one. */
static int sequence_to_tuple(PyObject *seq, int shape, cl_tuple_t **out) {
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject **items = PySequence_Fast_ITEMS(seq);
  Py_ssize_t i = 0;
  while (i < n && PyLong_Check(items[i]) && !PyBool_Check(items[i]))
    i++;
  if (i == n) {
    int64_t small[SMALL] = {0}, *values = n <= SMALL ? small : PyMem_New(int64_t, (size_t)n);
    if (values == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    int r = 0;
    for (i = 0; i < n && r == 0; i++) {
      int overflow = 0;
      values[i] = (int64_t)PyLong_AsLongLongAndOverflow(items[i], &overflow);
      if (overflow) {
        PyErr_Format(PyExc_OverflowError, "%R does not fit in a 64-bit integer", items[i]);
        r = -1;
      } else if (shape && values[i] < 0) {
        raise_negative_extent((long long)values[i]);
        r = -1;
      }
    }
    cl_status status = r == 0 ? cl_tuple_from_ints(values, (int64_t)n, out) : CL_OK;
    if (values != small)
      PyMem_Free(values);
    return r < 0 ? -1 : status < 0 ? fail_status(status) : 0;
  }
  cl_tuple_t *small[SMALL] = {NULL}, **elems = n <= SMALL ? small : PyMem_New(cl_tuple_t *, (size_t)n);
  if (elems == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  int r = 0;
  Py_ssize_t made = 0;
  for (; made < n && r == 0; made++)
    r = value_to_tuple(items[made], shape, &elems[made]);
  if (r < 0)
    made--;  /* the failed element made nothing */
  cl_status status = r == 0 ? cl_tuple_make((const cl_tuple_t *const *)elems, (int64_t)n, out) : CL_OK;
  for (i = 0; i < made; i++)
    cl_tuple_free(elems[i]);
  if (elems != small)
    PyMem_Free(elems);
  return r < 0 ? -1 : status < 0 ? fail_status(status) : 0;
}

/* The cl_tuple_t of a Python value: an int, `_` (or None, `:`, '_'), a
 * ScaledBasis, a Layout (a tiler's leaf), or a tuple or list of them.  With
 * `shape`, negative integers are refused: they are no extent. */
static int value_to_tuple(PyObject *o, int shape, cl_tuple_t **out) {
  *out = NULL;
  cl_status status;
  if (PyLong_Check(o) || (is_integer(o) && !PyTuple_Check(o) && !PyList_Check(o))) {
    int64_t v;
    if (leaf_int(o, &v) < 0)
      return -1;
    if (shape && v < 0) {
      raise_negative_extent((long long)v);
      return -1;
    }
    status = cl_tuple_int(v, out);
  } else if (PyTuple_Check(o) || PyList_Check(o)) {
    if (Py_EnterRecursiveCall(" converting a nested tuple"))
      return -1;
    PyObject *seq = PySequence_Fast(o, "");
    int r = seq == NULL ? -1 : sequence_to_tuple(seq, shape, out);
    Py_XDECREF(seq);
    Py_LeaveRecursiveCall();
    return r;
  } else if (is_underscore(o)) {
    status = cl_tuple_underscore(out);
  } else if (PyObject_TypeCheck(o, &LayoutType)) {
    if (layout_ready((LayoutObject *)o) < 0)
      return -1;
    status = cl_tuple_from_layout(((LayoutObject *)o)->handle, out);
  } else if (is_basis(o)) {
    return PyErr_Occurred() ? -1 : basis_to_tuple(o, out);
  } else {
    PyErr_Format(PyExc_TypeError, "expected an int, a tuple of ints, _ or a Layout, got %R", o);
    return -1;
  }
  return status < 0 ? fail_status(status) : 0;
}

/* A value as above, or at the top level also a tuple's text. */
static int arg_to_tuple(PyObject *o, cl_tuple_t **out) {
  if (PyUnicode_Check(o) && !is_underscore(o)) {
    const char *text = c_text(o);
    if (text == NULL)
      return -1;
    cl_status status = cl_tuple_parse(text, out);
    return status < 0 ? fail_status(status) : 0;
  }
  return value_to_tuple(o, 0, out);
}

/* ------------------------------------------------ cl_tuple -> Python value */

typedef int64_t (*format_fn)(const void *, char *, size_t);

/* The text of a handle through an snprintf-style formatter, as a str. */
static PyObject *format_text(format_fn format, const void *handle) {
  char small[256];
  int64_t need = format(handle, small, sizeof small);
  if (need < 0)
    return raise_status((cl_status)need);
  if ((size_t)need < sizeof small)
    return PyUnicode_FromStringAndSize(small, (Py_ssize_t)need);
  char *big = PyMem_Malloc((size_t)need + 1);
  if (big == NULL)
    return PyErr_NoMemory();
  int64_t got = format(handle, big, (size_t)need + 1);
  PyObject *s = got < 0 ? raise_status((cl_status)got) : PyUnicode_FromStringAndSize(big, (Py_ssize_t)got);
  PyMem_Free(big);
  return s;
}

/* Ints and parenthesised tuples of the canonical text, from *pos. */
static PyObject *parse_ints(const char **pos) {
  const char *p = *pos;
  if (*p == '(') {
    PyObject *items = PyList_New(0);
    if (items == NULL)
      return NULL;
    p++;
    while (*p != ')') {
      PyObject *item = parse_ints(&p);
      if (item == NULL || PyList_Append(items, item) < 0) {
        Py_XDECREF(item);
        Py_DECREF(items);
        return NULL;
      }
      Py_DECREF(item);
      if (*p == ',')
        p++;
    }
    *pos = p + 1;
    PyObject *t = PyList_AsTuple(items);
    Py_DECREF(items);
    return t;
  }
  char *end;
  long long v = strtoll(p, &end, 10);
  *pos = end;
  return PyLong_FromLongLong(v);
}

/* The Python value of a tuple handle (borrowed). */
static PyObject *tuple_value(const cl_tuple_t *t) {
  PyObject *text = format_text((format_fn)cl_tuple_format, t);
  if (text == NULL)
    return NULL;
  const char *s = PyUnicode_AsUTF8(text);
  if (s == NULL || strpbrk(s, "_@:") != NULL) {
    /* `_`, scaled bases and layout leaves: the Python layer's parser */
    PyObject *v = s == NULL || parse_value == NULL ? NULL : PyObject_CallOneArg(parse_value, text);
    Py_DECREF(text);
    return v;
  }
  PyObject *v = parse_ints(&s);
  Py_DECREF(text);
  return v;
}

/* The Python value of a fresh tuple handle, which is freed. */
static PyObject *tuple_value_owned(cl_tuple_t *t, cl_status status) {
  if (status < 0)
    return raise_status(status);
  PyObject *v = tuple_value(t);
  cl_tuple_free(t);
  return v;
}

/* The address a ctypes c_void_p or an int holds. */
static int address_of(PyObject *o, void **out) {
  PyObject *value = NULL;
  if (!PyLong_Check(o)) {
    value = PyObject_GetAttrString(o, "value");
    if (value == NULL || (value != Py_None && !PyLong_Check(value))) {
      Py_XDECREF(value);
      PyErr_Format(PyExc_TypeError, "expected a handle (an int address or a ctypes c_void_p), got %R", o);
      return -1;
    }
    o = value;
  }
  *out = o == Py_None ? NULL : PyLong_AsVoidPtr(o);
  Py_XDECREF(value);
  if (PyErr_Occurred())
    return -1;
  if (*out == NULL) {
    PyErr_SetString(PyExc_ValueError, "a NULL handle");
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ Tuple */

typedef struct {
  PyObject_HEAD
  cl_tuple_t *handle;
} TupleObject;

static void tuple_dealloc(TupleObject *self) {
  cl_tuple_free(self->handle);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int tuple_init(TupleObject *self, PyObject *args, PyObject *kwds) {
  PyObject *value;
  if (!PyArg_ParseTuple(args, "O:Tuple", &value))
    return -1;
  if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
    PyErr_SetString(PyExc_TypeError, "Tuple(value) takes no keyword arguments");
    return -1;
  }
  cl_tuple_t *t;
  if (arg_to_tuple(value, &t) < 0)
    return -1;
  cl_tuple_free(self->handle);
  self->handle = t;
  return 0;
}

static PyObject *tuple_adopt(PyTypeObject *cls, PyObject *handle) {
  void *h;
  if (address_of(handle, &h) < 0)
    return NULL;
  TupleObject *self = (TupleObject *)cls->tp_alloc(cls, 0);
  if (self == NULL) {
    cl_tuple_free(h);
    return NULL;
  }
  self->handle = h;
  return (PyObject *)self;
}

static int tuple_ready(TupleObject *self) {
  if (self->handle != NULL)
    return 0;
  PyErr_SetString(PyExc_ValueError, "an uninitialised Tuple");
  return -1;
}

static PyObject *tuple_py_value(TupleObject *self, PyObject *unused) {
  (void)unused;
  return tuple_ready(self) < 0 ? NULL : tuple_value(self->handle);
}

static PyObject *tuple_parameter(TupleObject *self, void *unused) {
  (void)unused;
  return self->handle == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr(self->handle);
}

static PyMethodDef tuple_methods[] = {
  {"adopt", (PyCFunction)(void (*)(void))tuple_adopt, METH_O | METH_CLASS,
   "Tuple.adopt(handle): wraps a fresh cl_tuple_t (an int address or a c_void_p); the Tuple owns it."},
  {"value", (PyCFunction)tuple_py_value, METH_NOARGS, "The Python value: ints, tuples, _, ScaledBasis, Layouts."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef tuple_getset[] = {
  {"_as_parameter_", (getter)tuple_parameter, NULL, "The cl_tuple_t's address, for ctypes.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TupleType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "cutelayout._native.Tuple",
  .tp_basicsize = sizeof(TupleObject),
  .tp_dealloc = (destructor)tuple_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "An owned cl_tuple_t made from a Python value (an int tuple or its text).",
  .tp_methods = tuple_methods,
  .tp_getset = tuple_getset,
  .tp_init = (initproc)tuple_init,
  .tp_new = PyType_GenericNew,
};

/* ----------------------------------------------------------------- Layout */

/* The algebra makes a Layout per call, which callers mostly drop at once:
 * up to LAYOUT_SPARE objects of the package's Layout class are kept when
 * they go and reused for the next results, saving their allocation, the
 * clearing of their memory and the collector's list.  A reused one is not
 * tracked by the collector: a Layout refers to no object that could refer
 * back to it (its cached shape and stride are tuples of ints or scaled
 * bases; the class adds no __dict__ or slots), so it is in no cycle. */
enum { LAYOUT_SPARE = 32 };
static LayoutObject *layout_spare[LAYOUT_SPARE];
static int layout_spares;

static void layout_dealloc(LayoutObject *self) {
  if (self->weakrefs != NULL)
    PyObject_ClearWeakRefs((PyObject *)self);
  cl_layout_free(self->handle);
  Py_CLEAR(self->shape);
  Py_CLEAR(self->stride);
  if ((PyObject *)Py_TYPE(self) == layout_class && layout_spares < LAYOUT_SPARE) {
    layout_spare[layout_spares++] = self;  /* (the class's reference is dropped by its own dealloc) */
    return;
  }
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static void layout_set(LayoutObject *self, cl_layout_t *handle) {
  cl_layout_free(self->handle);
  Py_CLEAR(self->shape);
  Py_CLEAR(self->stride);
  self->handle = handle;
  self->coordinate = -1;
}

/* Whether the strides hold scaled bases, found when first asked (most
 * layouts, an algebra's results among them, are never called). */
static int layout_coordinate(LayoutObject *self) {
  if (self->coordinate < 0)
    self->coordinate = cl_layout_is_coordinate(self->handle) > 0;
  return self->coordinate;
}

/* A new object of `type` (Layout or a subclass) owning `handle`; the handle
 * is freed when that fails. */
static PyObject *layout_wrap(PyTypeObject *type, cl_layout_t *handle) {
  LayoutObject *self;
  if ((PyObject *)type == layout_class && layout_spares > 0) {
    self = layout_spare[--layout_spares];
    PyObject_Init((PyObject *)self, type);  /* a new reference, and one to the class */
    self->handle = NULL;
    self->shape = self->stride = self->weakrefs = NULL;
  } else if ((self = (LayoutObject *)type->tp_alloc(type, 0)) == NULL) {
    cl_layout_free(handle);
    return NULL;
  }
  layout_set(self, handle);
  return (PyObject *)self;
}

/* Layout(shape, stride) of two flat tuples of ints, the common case, is
 * checked whole when made but builds its handle only when first used: the
 * shape and stride are kept as the Python values shape(L) and stride(L)
 * (which they are: exact tuples of exact ints), and everything that reads
 * the handle goes through layout_ready.  Making a layout is then about the
 * cost of a Python object with two attributes, as in pycute, while the
 * first call on it pays for the handle (what making it cost before). */

/* Whether t is a tuple of n ints that fit 64 bits (non-negative for a
 * shape): then the library takes it as it is. */
static int flat_ints(PyObject *t, Py_ssize_t n, int shape) {
  if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) != n)
    return 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *o = PyTuple_GET_ITEM(t, i);
    int overflow = 0;
    if (!PyLong_CheckExact(o))
      return 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (shape && v < 0))
      return 0;
  }
  return 1;
}

/* Defers the handle of Layout(shape, stride) when both are flat tuples of
 * ints of one length (congruent, integer strides: cl_layout_make takes them
 * and cannot refuse them but for memory); 0 when it did, 1 when the layout
 * is to be made now (any other form, and every error, which make reports). */
static int layout_defer(LayoutObject *self, PyObject *shape, PyObject *stride) {
  if (!PyTuple_CheckExact(shape))
    return 1;
  Py_ssize_t n = PyTuple_GET_SIZE(shape);
  if (n < 1 || n > SMALL || !flat_ints(shape, n, 1) || !flat_ints(stride, n, 0))
    return 1;
  layout_set(self, NULL);
  self->shape = Py_NewRef(shape);
  self->stride = Py_NewRef(stride);
  return 0;
}

/* The deferred handle, made now. */
static int layout_build(LayoutObject *self) {
  cl_tuple_t *s = NULL, *d = NULL;
  cl_layout_t *out = NULL;
  if (value_to_tuple(self->shape, 1, &s) < 0 || value_to_tuple(self->stride, 0, &d) < 0) {
    cl_tuple_free(s);
    return -1;
  }
  cl_status status = cl_layout_make(s, d, &out);
  cl_tuple_free(s);
  cl_tuple_free(d);
  if (status < 0)
    return fail_status(status);
  self->handle = out;
  return 0;
}

static int layout_deferred(const LayoutObject *self) { return self->handle == NULL && self->shape != NULL; }

/* 0 when the layout has its handle (made now if it was deferred). */
static int layout_ready(LayoutObject *self) {
  if (self->handle != NULL)
    return 0;
  if (layout_deferred(self))
    return layout_build(self);
  PyErr_SetString(PyExc_ValueError, "an uninitialised Layout");
  return -1;
}

/* A layout whose shape has a negative extent is no layout (its size would
 * be negative); the text form is checked here, the tuples as converted. */
static cl_status check_extents(const cl_layout_t *layout) {
  cl_tuple_t *shape = NULL;
  int64_t least = 0;
  cl_status status = cl_layout_shape(layout, &shape);
  if (status >= 0)
    status = cl_tuple_min(shape, &least);
  if (status == CL_E_DOMAIN)  /* no leaves: `()` */
    status = CL_OK;
  cl_tuple_free(shape);
  if (status >= 0 && least < 0) {
    raise_negative_extent((long long)least);
    return CL_E_DOMAIN;
  }
  if (status < 0)
    raise_status(status);
  return status < 0 ? status : CL_OK;
}

static int layout_init(LayoutObject *self, PyObject *args, PyObject *kwds) {
  static char *keywords[] = {"shape", "stride", NULL};
  PyObject *shape, *stride = Py_None;
  if (kwds == NULL && PyTuple_GET_SIZE(args) >= 1 && PyTuple_GET_SIZE(args) <= 2) {
    shape = PyTuple_GET_ITEM(args, 0);
    if (PyTuple_GET_SIZE(args) == 2)
      stride = PyTuple_GET_ITEM(args, 1);
  } else if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Layout", keywords, &shape, &stride)) {
    return -1;
  }
  cl_layout_t *out = NULL;
  cl_status status;
  if (PyObject_TypeCheck(shape, &LayoutType) || PyUnicode_Check(shape)) {
    if (stride != Py_None) {
      PyErr_SetString(PyExc_TypeError, "Layout(layout) and Layout(text) take no stride");
      return -1;
    }
    if (PyUnicode_Check(shape)) {
      const char *text = c_text(shape);
      if (text == NULL)
        return -1;
      status = cl_layout_parse(text, &out);
      if (status >= 0 && check_extents(out) < 0) {
        cl_layout_free(out);
        return -1;
      }
    } else {
      LayoutObject *from = (LayoutObject *)shape;
      if (layout_ready(from) < 0)
        return -1;
      status = cl_layout_copy(from->handle, &out);
    }
  } else if (stride != Py_None && stride != layout_left && stride != layout_right &&
             layout_defer(self, shape, stride) == 0) {
    return 0;
  } else {
    cl_tuple_t *s, *d = NULL;
    if (value_to_tuple(shape, 1, &s) < 0)
      return -1;
    if (stride == Py_None || stride == layout_left)
      status = cl_layout_make_left(s, &out);
    else if (stride == layout_right)
      status = cl_layout_make_right(s, &out);
    else if (value_to_tuple(stride, 0, &d) < 0) {
      cl_tuple_free(s);
      return -1;
    } else
      status = cl_layout_make(s, d, &out);
    cl_tuple_free(s);
    cl_tuple_free(d);
  }
  if (status < 0)
    return fail_status(status);
  layout_set(self, out);
  return 0;
}

static PyObject *layout_call(LayoutObject *self, PyObject *args, PyObject *kwds) {
  if (layout_deferred(self) && layout_build(self) < 0)
    return NULL;
  if (kwds == NULL && PyTuple_GET_SIZE(args) == 1 && self->handle != NULL && !layout_coordinate(self)) {
    PyObject *i = PyTuple_GET_ITEM(args, 0);
    if (PyLong_CheckExact(i)) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
      if (!overflow) {
        int64_t index;
        cl_status status = cl_layout_eval(self->handle, (int64_t)v, &index);
        return status < 0 ? raise_status(status) : PyLong_FromLongLong(index);
      }
    }
  }
  if (kwds == NULL && PyTuple_GET_SIZE(args) >= 1 && self->handle != NULL && !layout_coordinate(self)) {
    /* L(crd) or L(c0, c1, ...) of integer coordinates */
    PyObject *crd = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    int sliced = PyTuple_Check(crd) || PyList_Check(crd) ? has_underscore(crd) : 1;
    if (sliced < 0)
      return NULL;
    if (!sliced) {
      cl_tuple_t *t;
      int64_t index;
      if (value_to_tuple(crd, 0, &t) < 0)
        return NULL;
      cl_status status = cl_layout_eval_coord(self->handle, t, &index);
      cl_tuple_free(t);
      return status < 0 ? raise_status(status) : PyLong_FromLongLong(index);
    }
  }
  /* slices, coordinate layouts, the wrong kinds: the Python layer's _call */
  PyObject *slow = PyObject_GetAttrString((PyObject *)self, "_call");
  if (slow == NULL)
    return NULL;
  PyObject *r = PyObject_Call(slow, args, kwds);
  Py_DECREF(slow);
  return r;
}

static PyObject *layout_str(LayoutObject *self) {
  return layout_ready(self) < 0 ? NULL : format_text((format_fn)cl_layout_format, self->handle);
}

static Py_hash_t layout_hash(LayoutObject *self) {
  PyObject *text = layout_str(self);
  if (text == NULL)
    return -1;
  Py_hash_t h = PyObject_Hash(text);
  Py_DECREF(text);
  return h;
}

static PyObject *layout_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &LayoutType))
    Py_RETURN_NOTIMPLEMENTED;
  if ((layout_deferred((LayoutObject *)a) && layout_build((LayoutObject *)a) < 0) ||
      (layout_deferred((LayoutObject *)b) && layout_build((LayoutObject *)b) < 0))
    return NULL;
  const cl_layout_t *x = ((LayoutObject *)a)->handle, *y = ((LayoutObject *)b)->handle;
  int equal = x != NULL && y != NULL ? cl_layout_equal(x, y) > 0 : x == y;
  return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static PyObject *layout_adopt(PyTypeObject *cls, PyObject *handle) {
  void *h;
  if (address_of(handle, &h) < 0)
    return NULL;
  return layout_wrap(cls, h);
}

typedef cl_status (*count_fn)(const cl_layout_t *, int64_t *);

static PyObject *layout_count(LayoutObject *self, count_fn fn) {
  int64_t n;
  if (layout_ready(self) < 0)
    return NULL;
  cl_status status = fn(self->handle, &n);
  return status < 0 ? raise_status(status) : PyLong_FromLongLong(n);
}

static PyObject *layout_size(LayoutObject *self, PyObject *unused) {
  (void)unused;
  return layout_count(self, cl_layout_size_checked);
}

static PyObject *layout_cosize(LayoutObject *self, PyObject *unused) {
  (void)unused;
  return layout_count(self, cl_layout_cosize_checked);
}

static PyObject *layout_rank(LayoutObject *self, PyObject *unused) {
  (void)unused;
  return layout_ready(self) < 0 ? NULL : PyLong_FromLongLong(cl_layout_rank(self->handle));
}

static PyObject *layout_depth(LayoutObject *self, PyObject *unused) {
  (void)unused;
  return layout_ready(self) < 0 ? NULL : PyLong_FromLongLong(cl_layout_depth(self->handle));
}

typedef cl_status (*part_fn)(const cl_layout_t *, cl_tuple_t **);

static PyObject *layout_part(LayoutObject *self, part_fn fn, PyObject **cache) {
  cl_tuple_t *t = NULL;
  if (*cache == NULL) {
    if (layout_ready(self) < 0)
      return NULL;
    *cache = tuple_value_owned(t, fn(self->handle, &t));
  }
  return Py_XNewRef(*cache);
}

static PyObject *layout_shape(LayoutObject *self, void *unused) {
  (void)unused;
  return layout_part(self, cl_layout_shape, &self->shape);
}

static PyObject *layout_stride(LayoutObject *self, void *unused) {
  (void)unused;
  return layout_part(self, cl_layout_stride, &self->stride);
}

static PyObject *layout_is_coordinate(LayoutObject *self, void *unused) {
  (void)unused;
  if (layout_deferred(self) && layout_build(self) < 0)
    return NULL;
  return PyBool_FromLong(layout_coordinate(self));
}

static PyObject *layout_parameter(LayoutObject *self, void *unused) {
  (void)unused;
  if (layout_deferred(self) && layout_build(self) < 0)
    return NULL;
  return self->handle == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr(self->handle);
}

static PyMethodDef layout_methods[] = {
  {"_adopt", (PyCFunction)(void (*)(void))layout_adopt, METH_O | METH_CLASS,
   "Layout._adopt(handle): wraps a fresh cl_layout_t (an int address or a c_void_p); the Layout owns it."},
  {"size", (PyCFunction)layout_size, METH_NOARGS, "size(L): the product of the shape."},
  {"cosize", (PyCFunction)layout_cosize, METH_NOARGS, "cosize(L): 1 + the largest index (for non-negative strides)."},
  {"rank", (PyCFunction)layout_rank, METH_NOARGS, "rank(L): the number of top-level modes."},
  {"depth", (PyCFunction)layout_depth, METH_NOARGS, "depth(L): the nesting of the shape (0 for an integer)."},
  {NULL, NULL, 0, NULL},
};

static PyGetSetDef layout_getset[] = {
  {"shape", (getter)layout_shape, NULL, "shape(L) as an int tuple.", NULL},
  {"stride", (getter)layout_stride, NULL, "stride(L): ints, or scaled bases for a coordinate layout.", NULL},
  {"is_coordinate", (getter)layout_is_coordinate, NULL,
   "True when the strides hold scaled bases (the values are coordinates).", NULL},
  {"_as_parameter_", (getter)layout_parameter, NULL, "The cl_layout_t's address, for ctypes.", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LayoutType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "cutelayout._native.Layout",
  .tp_basicsize = sizeof(LayoutObject),
  .tp_dealloc = (destructor)layout_dealloc,
  .tp_hash = (hashfunc)layout_hash,
  .tp_call = (ternaryfunc)layout_call,
  .tp_str = (reprfunc)layout_str,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "An owned cl_layout_t: Layout(shape, stride=None), Layout(text) or Layout(layout).",
  .tp_richcompare = layout_richcompare,
  .tp_weaklistoffset = offsetof(LayoutObject, weakrefs),
  .tp_methods = layout_methods,
  .tp_getset = layout_getset,
  .tp_init = (initproc)layout_init,
  .tp_new = PyType_GenericNew,
};

/* --------------------------------------------------------------- algebra */

static LayoutObject *layout_arg(PyObject *o, const char *name) {
  if (!PyObject_TypeCheck(o, &LayoutType)) {
    PyErr_Format(PyExc_TypeError, "%s: expected a Layout, got %R", name, o);
    return NULL;
  }
  LayoutObject *l = (LayoutObject *)o;
  return layout_ready(l) < 0 ? NULL : l;
}

typedef cl_status (*unary_fn)(const cl_layout_t *, cl_layout_t **);
typedef cl_status (*binary_fn)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);
typedef cl_status (*tiler_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);

/* f(A) for a layout A; the result has A's class. */
static PyObject *unary(PyObject *const *args, Py_ssize_t nargs, const char *name, unary_fn fn) {
  if (nargs != 1)
    return PyErr_Format(PyExc_TypeError, "%s takes one layout", name);
  LayoutObject *a = layout_arg(args[0], name);
  if (a == NULL)
    return NULL;
  cl_layout_t *out = NULL;
  cl_status status = fn(a->handle, &out);
  return status < 0 ? raise_status(status) : layout_wrap(Py_TYPE(a), out);
}

/* f(A, B) for a layout B, or the tiler form for anything else (a tuple of
 * layouts, ints and `_`); the result has A's class. */
static PyObject *binary(PyObject *const *args, Py_ssize_t nargs, const char *name, binary_fn fn, tiler_fn by_tiler) {
  if (nargs != 2)
    return PyErr_Format(PyExc_TypeError, "%s takes two arguments", name);
  LayoutObject *a = layout_arg(args[0], name);
  if (a == NULL)
    return NULL;
  cl_layout_t *out = NULL;
  cl_status status;
  if (PyObject_TypeCheck(args[1], &LayoutType)) {
    LayoutObject *b = (LayoutObject *)args[1];
    if (layout_ready(b) < 0)
      return NULL;
    status = fn(a->handle, b->handle, &out);
  } else if (by_tiler != NULL) {
    cl_tuple_t *tiler;
    if (value_to_tuple(args[1], 0, &tiler) < 0)
      return NULL;
    status = by_tiler(a->handle, tiler, &out);
    cl_tuple_free(tiler);
  } else {
    return PyErr_Format(PyExc_TypeError, "%s: expected a Layout, got %R", name, args[1]);
  }
  return status < 0 ? raise_status(status) : layout_wrap(Py_TYPE(a), out);
}

#define UNARY(name, fn)                                                                  \
  static PyObject *py_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {     \
    (void)m;                                                                             \
    return unary(args, nargs, #name, fn);                                                \
  }
#define BINARY(name, fn, by_tiler)                                                       \
  static PyObject *py_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {     \
    (void)m;                                                                             \
    return binary(args, nargs, #name, fn, by_tiler);                                     \
  }

UNARY(coalesce, cl_coalesce)
UNARY(filter, cl_filter)
UNARY(right_inverse, cl_right_inverse)
UNARY(left_inverse, cl_left_inverse)
UNARY(complement_full, cl_complement_full)
BINARY(composition, cl_composition, cl_composition_tiler)
BINARY(logical_divide, cl_logical_divide, cl_logical_divide_tiler)
BINARY(zipped_divide, cl_zipped_divide, cl_zipped_divide_tiler)
BINARY(tiled_divide, cl_tiled_divide, cl_tiled_divide_tiler)
BINARY(flat_divide, cl_flat_divide, cl_flat_divide_tiler)
BINARY(logical_product, cl_logical_product, cl_logical_product_tiler)
BINARY(zipped_product, cl_zipped_product, cl_zipped_product_tiler)
BINARY(tiled_product, cl_tiled_product, cl_tiled_product_tiler)
BINARY(flat_product, cl_flat_product, cl_flat_product_tiler)
BINARY(blocked_product, cl_blocked_product, NULL)
BINARY(raked_product, cl_raked_product, NULL)

/* complement(A, cotarget): an int cotarget, or a shape. */
static PyObject *py_complement(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
  (void)m;
  if (nargs == 1)
    return unary(args, nargs, "complement", cl_complement_full);
  if (nargs != 2)
    return PyErr_Format(PyExc_TypeError, "complement takes a layout and a cotarget");
  LayoutObject *a = layout_arg(args[0], "complement");
  if (a == NULL)
    return NULL;
  cl_layout_t *out = NULL;
  cl_status status;
  if (PyLong_Check(args[1])) {
    int64_t cotarget;
    if (leaf_int(args[1], &cotarget) < 0)
      return NULL;
    status = cl_complement(a->handle, cotarget, &out);
  } else {
    cl_tuple_t *cotarget;
    if (value_to_tuple(args[1], 0, &cotarget) < 0)
      return NULL;
    status = cl_complement_shape(a->handle, cotarget, &out);
    cl_tuple_free(cotarget);
  }
  return status < 0 ? raise_status(status) : layout_wrap(Py_TYPE(a), out);
}

/* make_layout(L0, L1, ...): the layouts as the modes of one; the result has
 * L0's class (Layout for none). */
static PyObject *py_concat(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
  (void)m;
  const cl_layout_t *small[SMALL] = {NULL}, **handles = nargs <= SMALL ? small : PyMem_New(const cl_layout_t *, (size_t)nargs);
  if (handles == NULL)
    return PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < nargs; i++) {
    LayoutObject *l = layout_arg(args[i], "make_layout");
    if (l == NULL) {
      if (handles != small)
        PyMem_Free(handles);
      return NULL;
    }
    handles[i] = l->handle;
  }
  cl_layout_t *out = NULL;
  cl_status status = cl_layout_concat(handles, (int64_t)nargs, &out);
  if (handles != small)
    PyMem_Free(handles);
  PyTypeObject *type = nargs > 0 ? Py_TYPE(args[0]) : &LayoutType;
  return status < 0 ? raise_status(status) : layout_wrap(type, out);
}

/* eval_into(handle, kind, begin, out): out[k] = F(begin + k) for every
 * element k of out (a writable buffer of int64), F the layout or composed
 * layout at the handle's address (kind 0: a cl_layout_t, 1: a
 * cl_composed_t), compiled once and evaluated inline (compiled.h): the
 * indices of a swizzled layout or tensor without a Python loop. */
static PyObject *py_eval_into(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
  (void)m;
  if (nargs != 4)
    return PyErr_Format(PyExc_TypeError, "eval_into(handle, kind, begin, out)");
  void *handle;
  int64_t kind, begin;
  if (address_of(args[0], &handle) < 0 || leaf_int(args[1], &kind) < 0 || leaf_int(args[2], &begin) < 0)
    return NULL;
  Py_buffer out;
  if (PyObject_GetBuffer(args[3], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
    return NULL;
  PyObject *result = NULL;
  if (out.itemsize != (Py_ssize_t)sizeof(int64_t) || out.format == NULL || strchr("qlL", out.format[0]) == NULL) {
    PyErr_SetString(PyExc_TypeError, "eval_into writes into a buffer of int64");
    goto done;
  }
  cl_compiled_layout_t compiled;
  cl_status status = kind == 0 ? cl_layout_compile(handle, &compiled) : cl_composed_compile(handle, &compiled);
  if (status < 0) {
    raise_status(status);
    goto done;
  }
  int64_t n = (int64_t)(out.len / out.itemsize);
  if (begin < 0 || begin > compiled.size || n > compiled.size - begin) {
    PyErr_Format(PyExc_IndexError, "eval_into: [%lld, %lld) is outside the domain [0, %lld)", (long long)begin,
                 (long long)begin + (long long)n, (long long)compiled.size);
    goto done;
  }
  int64_t *indices = out.buf;
  Py_BEGIN_ALLOW_THREADS
  for (int64_t k = 0; k < n; k++)
    indices[k] = cl_compiled_eval(&compiled, begin + k);
  Py_END_ALLOW_THREADS
  result = Py_NewRef(Py_None);
done:
  PyBuffer_Release(&out);
  return result;
}

/* -------------------------------------------------------- tensor elements */

/* T[key] and T[key] = value of the Python Tensor (a cl_tensor_t) for an
 * integer or integer-tuple key and an element that is a Python int or
 * float (the integer types, float16, float32, float64): the library's load
 * or store and the conversion, without ctypes' buffers.  Each answers
 * NotImplemented where the Python layer does the work: a slice, an
 * untyped or bfloat16 element, a key or value of another type, a value the
 * element cannot hold (whose error the Python layer raises). */

#if PY_VERSION_HEX < 0x030B0000  /* PyFloat_Pack2/4 and Unpack2 are public from Python 3.11 */
#define PyFloat_Pack2(x, p, le) _PyFloat_Pack2((x), (unsigned char *)(p), (le))
#define PyFloat_Pack4(x, p, le) _PyFloat_Pack4((x), (unsigned char *)(p), (le))
#define PyFloat_Unpack2(p, le) _PyFloat_Unpack2((const unsigned char *)(p), (le))
#endif

/* The elements converted here: int8 ... uint64, float16, float32, float64. */
static int element_converted_here(cl_dtype dtype) {
  return dtype != CL_DTYPE_NONE && dtype != CL_DTYPE_BFLOAT16 && dtype <= CL_DTYPE_FLOAT64;
}

#define LOAD_AS(type, make) \
  do {                      \
    type v;                 \
    memcpy(&v, bytes, sizeof v); \
    return make(v);         \
  } while (0)

/* The Python value of one element (its bytes, in the machine's order). */
static PyObject *element_value(cl_dtype dtype, const unsigned char *bytes) {
  switch (dtype) {
  case CL_DTYPE_INT8: LOAD_AS(int8_t, PyLong_FromLong);
  case CL_DTYPE_INT16: LOAD_AS(int16_t, PyLong_FromLong);
  case CL_DTYPE_INT32: LOAD_AS(int32_t, PyLong_FromLong);
  case CL_DTYPE_INT64: LOAD_AS(int64_t, PyLong_FromLongLong);
  case CL_DTYPE_UINT8: LOAD_AS(uint8_t, PyLong_FromUnsignedLong);
  case CL_DTYPE_UINT16: LOAD_AS(uint16_t, PyLong_FromUnsignedLong);
  case CL_DTYPE_UINT32: LOAD_AS(uint32_t, PyLong_FromUnsignedLong);
  case CL_DTYPE_UINT64: LOAD_AS(uint64_t, PyLong_FromUnsignedLongLong);
  case CL_DTYPE_FLOAT32: LOAD_AS(float, PyFloat_FromDouble);
  case CL_DTYPE_FLOAT64: LOAD_AS(double, PyFloat_FromDouble);
  case CL_DTYPE_FLOAT16: {
    double v = PyFloat_Unpack2((const char *)bytes, PY_LITTLE_ENDIAN);
    return v == -1.0 && PyErr_Occurred() ? NULL : PyFloat_FromDouble(v);
  }
  default:
    Py_RETURN_NOTIMPLEMENTED;
  }
}

#define STORE_INT(type, least, most)      \
  do {                                    \
    if (v < (least) || v > (most))        \
      return 1;                           \
    type e = (type)v;                     \
    memcpy(bytes, &e, sizeof e);          \
    return 0;                             \
  } while (0)

/* The bytes of value as one element: 0 when made, 1 when the Python layer
 * is to convert it (no error set). */
static int element_bytes(cl_dtype dtype, PyObject *value, unsigned char *bytes) {
  if (dtype >= CL_DTYPE_FLOAT16) { /* float16, float32, float64 */
    if (!PyFloat_CheckExact(value) && !PyLong_CheckExact(value))
      return 1;
    double x = PyFloat_AsDouble(value);
    int r = x == -1.0 && PyErr_Occurred() ? -1
            : dtype == CL_DTYPE_FLOAT16 ? PyFloat_Pack2(x, (char *)bytes, PY_LITTLE_ENDIAN)
            : dtype == CL_DTYPE_FLOAT32 ? PyFloat_Pack4(x, (char *)bytes, PY_LITTLE_ENDIAN)
                                        : (memcpy(bytes, &x, sizeof x), 0);
    if (r < 0)
      PyErr_Clear(); /* out of range: the Python layer raises struct's error */
    return r < 0;
  }
  if (!PyLong_Check(value))
    return 1;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return 1; /* past int64 (a uint64's upper half, or too large): the Python layer */
  }
  switch (dtype) {
  case CL_DTYPE_INT8: STORE_INT(int8_t, INT8_MIN, INT8_MAX);
  case CL_DTYPE_INT16: STORE_INT(int16_t, INT16_MIN, INT16_MAX);
  case CL_DTYPE_INT32: STORE_INT(int32_t, INT32_MIN, INT32_MAX);
  case CL_DTYPE_INT64: STORE_INT(int64_t, INT64_MIN, INT64_MAX);
  case CL_DTYPE_UINT8: STORE_INT(uint8_t, 0, UINT8_MAX);
  case CL_DTYPE_UINT16: STORE_INT(uint16_t, 0, UINT16_MAX);
  case CL_DTYPE_UINT32: STORE_INT(uint32_t, 0, UINT32_MAX);
  case CL_DTYPE_UINT64: STORE_INT(uint64_t, 0, INT64_MAX);
  default:
    return 1;
  }
}

typedef cl_status (*element_at_fn)(const cl_tensor_t *, int64_t, void *);
typedef cl_status (*element_crd_fn)(const cl_tensor_t *, const cl_tuple_t *, void *);

/* The library's access to element key (an int or an int tuple) of t: the
 * status, or 1 when the key is for the Python layer (a slice, another type),
 * or -1 on an error set here. */
static int element_access(const cl_tensor_t *t, PyObject *key, element_at_fn at, element_crd_fn at_crd, void *bytes) {
  if (PyLong_CheckExact(key)) {
    int64_t i;
    if (leaf_int(key, &i) < 0)
      return -1;
    cl_status status = at(t, i, bytes);
    return status < 0 ? fail_status(status) : 0;
  }
  if (!PyTuple_Check(key) && !PyList_Check(key))
    return 1;
  int sliced = has_underscore(key);
  if (sliced != 0)
    return sliced;
  cl_tuple_t *crd;
  if (value_to_tuple(key, 0, &crd) < 0)
    return -1;
  cl_status status = at_crd(t, crd, bytes);
  cl_tuple_free(crd);
  return status < 0 ? fail_status(status) : 0;
}

/* tensor_load(handle, key): T[key]. */
static PyObject *py_tensor_load(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
  (void)m;
  void *t;
  if (nargs != 2)
    return PyErr_Format(PyExc_TypeError, "tensor_load(handle, key)");
  if (address_of(args[0], &t) < 0)
    return NULL;
  cl_dtype dtype = cl_tensor_dtype(t);
  unsigned char bytes[8];
  if (!element_converted_here(dtype))
    Py_RETURN_NOTIMPLEMENTED;
  int r = element_access(t, args[1], cl_tensor_load, cl_tensor_load_coord, bytes);
  if (r != 0)
    return r < 0 ? NULL : Py_NewRef(Py_NotImplemented);
  return element_value(dtype, bytes);
}

static cl_status store_at(const cl_tensor_t *t, int64_t i, void *bytes) { return cl_tensor_store(t, i, bytes); }
static cl_status store_at_crd(const cl_tensor_t *t, const cl_tuple_t *crd, void *bytes) {
  return cl_tensor_store_coord(t, crd, bytes);
}

/* tensor_store(handle, key, value): T[key] = value; None when done. */
static PyObject *py_tensor_store(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
  (void)m;
  void *t;
  if (nargs != 3)
    return PyErr_Format(PyExc_TypeError, "tensor_store(handle, key, value)");
  if (address_of(args[0], &t) < 0)
    return NULL;
  cl_dtype dtype = cl_tensor_dtype(t);
  unsigned char bytes[8];
  if (!element_converted_here(dtype) || element_bytes(dtype, args[2], bytes) != 0)
    Py_RETURN_NOTIMPLEMENTED;
  int r = element_access(t, args[1], store_at, store_at_crd, bytes);
  if (r != 0)
    return r < 0 ? NULL : Py_NewRef(Py_NotImplemented);
  Py_RETURN_NONE;
}

/* -------------------------------------------------------------- dispatch */

/* dispatch(name, slow): the package's function `name` with its common case
 * taken in C.  The call runs the C function above when its arguments are
 * the layouts (or tiler tuples, or integer cotarget) it takes, and else
 * calls `slow`, the Python function that dispatches on every kind of
 * argument (composed layouts, swizzles, text, tensors, ...), with the same
 * arguments.  Both answer the same: the C path is the library call that
 * `slow` would make, without a Python frame around it. */

typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t);

enum accepts {
  ACCEPT_LAYOUT,      /* f(L) */
  ACCEPT_LAYOUTS,     /* f(A, B) */
  ACCEPT_TILER,       /* f(A, B), B a layout or a tuple (a tiler) */
  ACCEPT_COTARGET,    /* f(L) or f(L, n) with an int n */
};

static const struct fast_path {
  const char *name;
  fastcall_fn fn;
  enum accepts accepts;
} fast_paths[] = {
  {"coalesce", py_coalesce, ACCEPT_LAYOUT},
  {"filter", py_filter, ACCEPT_LAYOUT},
  {"right_inverse", py_right_inverse, ACCEPT_LAYOUT},
  {"left_inverse", py_left_inverse, ACCEPT_LAYOUT},
  {"complement", py_complement, ACCEPT_COTARGET},
  {"composition", py_composition, ACCEPT_TILER},
  {"logical_divide", py_logical_divide, ACCEPT_TILER},
  {"zipped_divide", py_zipped_divide, ACCEPT_TILER},
  {"tiled_divide", py_tiled_divide, ACCEPT_TILER},
  {"flat_divide", py_flat_divide, ACCEPT_TILER},
  {"logical_product", py_logical_product, ACCEPT_TILER},
  {"zipped_product", py_zipped_product, ACCEPT_TILER},
  {"tiled_product", py_tiled_product, ACCEPT_TILER},
  {"flat_product", py_flat_product, ACCEPT_TILER},
  {"blocked_product", py_blocked_product, ACCEPT_LAYOUTS},
  {"raked_product", py_raked_product, ACCEPT_LAYOUTS},
};

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  const struct fast_path *path;
  PyObject *slow;
} DispatchObject;

static int is_layout(PyObject *o) {
  return PyObject_TypeCheck(o, &LayoutType) && (((LayoutObject *)o)->handle != NULL || layout_deferred((LayoutObject *)o));
}

static int takes(const struct fast_path *path, PyObject *const *args, Py_ssize_t nargs) {
  switch (path->accepts) {
  case ACCEPT_LAYOUT:
    return nargs == 1 && is_layout(args[0]);
  case ACCEPT_LAYOUTS:
    return nargs == 2 && is_layout(args[0]) && is_layout(args[1]);
  case ACCEPT_TILER:
    return nargs == 2 && is_layout(args[0]) && (is_layout(args[1]) || PyTuple_CheckExact(args[1]));
  case ACCEPT_COTARGET:
    return (nargs == 1 || (nargs == 2 && PyLong_CheckExact(args[1]))) && is_layout(args[0]);
  }
  return 0;
}

static PyObject *dispatch_call(DispatchObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (kwnames == NULL && takes(self->path, args, nargs))
    return self->path->fn(NULL, args, nargs);
  return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static void dispatch_dealloc(DispatchObject *self) {
  Py_XDECREF(self->slow);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *dispatch_getattro(DispatchObject *self, PyObject *name) {
  /* __doc__, __name__, __module__, __wrapped__ ...: the Python function's */
  PyObject *r = PyObject_GenericGetAttr((PyObject *)self, name);
  if (r != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError))
    return r;
  PyErr_Clear();
  if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "__wrapped__") == 0)
    return Py_NewRef(self->slow);
  return PyObject_GetAttr(self->slow, name);
}

static PyObject *dispatch_repr(DispatchObject *self) { return PyObject_Repr(self->slow); }

static PyObject *dispatch_get_doc(DispatchObject *self, void *unused) {
  (void)unused;
  return PyObject_GetAttrString(self->slow, "__doc__");
}

static PyGetSetDef dispatch_getset[] = {
  {"__doc__", (getter)dispatch_get_doc, NULL, NULL, NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject DispatchType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "cutelayout._native.dispatch",
  .tp_basicsize = sizeof(DispatchObject),
  .tp_dealloc = (destructor)dispatch_dealloc,
  .tp_vectorcall_offset = offsetof(DispatchObject, vectorcall),
  .tp_repr = (reprfunc)dispatch_repr,
  .tp_call = PyVectorcall_Call,
  .tp_getattro = (getattrofunc)dispatch_getattro,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
  .tp_doc = "A package function with its common case (layouts) taken in C.",
  .tp_getset = dispatch_getset,
};

static PyObject *py_dispatch(PyObject *m, PyObject *args) {
  (void)m;
  const char *name;
  PyObject *slow;
  if (!PyArg_ParseTuple(args, "sO:dispatch", &name, &slow))
    return NULL;
  if (!PyCallable_Check(slow))
    return PyErr_Format(PyExc_TypeError, "dispatch: %R is not callable", slow);
  for (size_t i = 0; i < sizeof fast_paths / sizeof fast_paths[0]; i++)
    if (strcmp(fast_paths[i].name, name) == 0) {
      DispatchObject *self = PyObject_New(DispatchObject, &DispatchType);
      if (self == NULL)
        return NULL;
      self->vectorcall = (vectorcallfunc)dispatch_call;
      self->path = &fast_paths[i];
      self->slow = Py_NewRef(slow);
      return (PyObject *)self;
    }
  return PyErr_Format(PyExc_ValueError, "dispatch: no fast path named %s", name);
}

/* --------------------------------------------------------------- module */

static PyObject *py_tuple_value(PyObject *m, PyObject *value) {
  (void)m;
  cl_tuple_t *t;
  if (arg_to_tuple(value, &t) < 0)
    return NULL;
  return tuple_value_owned(t, CL_OK);
}

static PyObject *py_register(PyObject *m, PyObject *args, PyObject *kwds) {
  (void)m;
  static char *keywords[] = {"make_error", "underscore", "scaled_basis", "layout_left", "layout_right",
                             "parse_value", "layout_class", NULL};
  PyObject *values[7] = {NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OOOOOOO:register", keywords, &values[0], &values[1], &values[2],
                                   &values[3], &values[4], &values[5], &values[6]))
    return NULL;
  PyObject *cls = values[6];
  if (cls != NULL && (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &LayoutType) ||
                      ((PyTypeObject *)cls)->tp_basicsize != LayoutType.tp_basicsize ||
                      ((PyTypeObject *)cls)->tp_dictoffset != 0)) {
    PyErr_Format(PyExc_TypeError, "register: %R is not a Layout class without a __dict__ or slots", cls);
    return NULL;
  }
  if (cls != NULL && cls != layout_class)
    while (layout_spares > 0) { /* the old class's spares go (they still name it) */
      LayoutObject *spare = layout_spare[--layout_spares];
      Py_TYPE(spare)->tp_free((PyObject *)spare);
    }
  PyObject **slots[7] = {&make_error, &underscore, &scaled_basis, &layout_left, &layout_right, &parse_value,
                         &layout_class};
  for (int i = 0; i < 7; i++)
    if (values[i] != NULL)
      Py_XSETREF(*slots[i], Py_NewRef(values[i]));
  Py_RETURN_NONE;
}

#define ALGEBRA(name, doc) {#name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL, doc}

static PyMethodDef module_methods[] = {
  {"register", (PyCFunction)(void (*)(void))py_register, METH_VARARGS | METH_KEYWORDS,
   "register(make_error=, underscore=, scaled_basis=, layout_left=, layout_right=, parse_value=, layout_class=): "
   "the Python objects the conversions need, and the package's Layout class (whose objects are reused)."},
  {"dispatch", (PyCFunction)py_dispatch, METH_VARARGS,
   "dispatch(name, slow): the function `name` of the algebra taking layouts in C, `slow` for the other arguments."},
  {"tuple_value", (PyCFunction)py_tuple_value, METH_O,
   "The canonical Python value of an int tuple (or its text), through the library."},
  ALGEBRA(coalesce, "coalesce(L)"),
  ALGEBRA(filter, "filter(L)"),
  ALGEBRA(right_inverse, "right_inverse(L)"),
  ALGEBRA(left_inverse, "left_inverse(L)"),
  ALGEBRA(complement_full, "complement(L)"),
  ALGEBRA(complement, "complement(L[, cotarget]): cotarget an int or a shape"),
  ALGEBRA(composition, "composition(A, B): B a Layout or a tiler"),
  ALGEBRA(logical_divide, "logical_divide(A, B): B a Layout or a tiler"),
  ALGEBRA(zipped_divide, "zipped_divide(A, B): B a Layout or a tiler"),
  ALGEBRA(tiled_divide, "tiled_divide(A, B): B a Layout or a tiler"),
  ALGEBRA(flat_divide, "flat_divide(A, B): B a Layout or a tiler"),
  ALGEBRA(logical_product, "logical_product(A, B): B a Layout or a tiler"),
  ALGEBRA(zipped_product, "zipped_product(A, B): B a Layout or a tiler"),
  ALGEBRA(tiled_product, "tiled_product(A, B): B a Layout or a tiler"),
  ALGEBRA(flat_product, "flat_product(A, B): B a Layout or a tiler"),
  ALGEBRA(blocked_product, "blocked_product(A, B): layouts"),
  ALGEBRA(raked_product, "raked_product(A, B): layouts"),
  ALGEBRA(concat, "make_layout(L0, L1, ...): the layouts as modes"),
  {"tensor_load", (PyCFunction)(void (*)(void))py_tensor_load, METH_FASTCALL,
   "tensor_load(handle, key): element key (an int or int tuple) of the cl_tensor_t at handle, as an int or a float; "
   "NotImplemented for the Python layer (a slice, a bfloat16 or untyped element, another kind of key)."},
  {"tensor_store", (PyCFunction)(void (*)(void))py_tensor_store, METH_FASTCALL,
   "tensor_store(handle, key, value): element key of the cl_tensor_t at handle = value (an int or a float); None, "
   "or NotImplemented for the Python layer (a slice, a bfloat16 or untyped element, a value it does not hold)."},
  {"eval_into", (PyCFunction)(void (*)(void))py_eval_into, METH_FASTCALL,
   "eval_into(handle, kind, begin, out): out[k] = F(begin + k), F the cl_layout_t (kind 0) or cl_composed_t "
   "(kind 1) at handle, for every element of the int64 buffer out."},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
  PyModuleDef_HEAD_INIT, "cutelayout._native",
  "The package's compiled floor: Layout and Tuple values on libcutelayout's handles, and the algebra on layouts.",
  -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void);
PyMODINIT_FUNC PyInit__native(void) {
  if (PyType_Ready(&LayoutType) < 0 || PyType_Ready(&TupleType) < 0 || PyType_Ready(&DispatchType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&module);
  if (m == NULL)
    return NULL;
  if (PyModule_AddObjectRef(m, "Layout", (PyObject *)&LayoutType) < 0 ||
      PyModule_AddObjectRef(m, "Tuple", (PyObject *)&TupleType) < 0 ||
      PyModule_AddIntConstant(m, "ABI_VERSION", CL_ABI_VERSION) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
