/* SPDX-License-Identifier: BSD-3-Clause */
/* render_panels.c: cl_render_panels, pictures side by side.  A panel is a
 * layout or a composed layout, so this file sits above both layout.c and
 * swizzle.c: it turns each panel into a map (map_impl.h) and hands the
 * figure to render.c, which draws maps and knows neither. */
#include "map_impl.h"
#include "render_impl.h"
#include "swizzle_impl.h"

static cl_status panel_spec(const cl_picture_panel *panel, cl_panel_spec *spec) {
  if ((panel->layout == NULL) == (panel->composed == NULL))
    return cl_fail(CL_E_NULL, "render: a panel needs a layout or a composed layout (one of them)");
  if (panel->layout != NULL)
    spec->fn = cl_fnmap_of_layout(panel->layout);
  else if (cl_fnmap_of_composed(panel->composed, "render", &spec->fn) != CL_OK)
    return cl_fail(CL_E_UNSUPPORTED, "render: a composed layout's inner function is a swizzle, which has no grid");
  spec->title = panel->title;
  spec->map = NULL;
  spec->map_ctx = NULL;
  spec->tile_rows = panel->tile_rows;
  spec->tile_cols = panel->tile_cols;
  spec->highlight = panel->highlight;
  return CL_OK;
}

static int64_t render_panels(const cl_picture_panel *panels, size_t count, const cl_picture_options *options,
                             cl_sink *o) {
  if (panels == NULL)
    return cl_fail(CL_E_NULL, "render: the panels are NULL");
  if (count < 1 || count > CL_PICTURE_MAX_PANELS)
    return cl_fail(CL_E_DOMAIN, "render: %zu panels; a figure has 1 to %d", count, CL_PICTURE_MAX_PANELS);
  if (options != NULL && options->size >= offsetof(cl_picture_options, map) + sizeof options->map &&
      options->map != NULL)
    return cl_fail(CL_E_DOMAIN, "render: a figure's options have no map (each panel is a function of its own)");
  cl_panel_spec specs[CL_PICTURE_MAX_PANELS];
  for (size_t k = 0; k < count; k++)
    CL_TRY(panel_spec(&panels[k], &specs[k]));
  return cl_render_figure(specs, count, options, true, o);
}

int64_t cl_render_panels(const cl_picture_panel *panels, size_t count, const cl_picture_options *options, char *buf,
                         size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "render: buf is NULL");
  cl_sink o = cl_sink_buffer(buf, cap);
  return render_panels(panels, count, options, &o);
}

int64_t cl_render_panels_file(const cl_picture_panel *panels, size_t count, const cl_picture_options *options,
                              FILE *f) {
  if (f == NULL)
    return cl_fail(CL_E_NULL, "render: the stream is NULL");
  cl_sink o = cl_sink_stream(f);
  return render_panels(panels, count, options, &o);
}
