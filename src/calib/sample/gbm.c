/* gbm.c — gradient-boosted regression trees, least squares (see dcsim/gbm.h). */
#include "dcsim/gbm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib/sample/internal.h"
#include "dcsim/strutil.h"

/* one node of a tree: a leaf (dim < 0) with its value, or a split x[dim] <= thr */
typedef struct node {
  int dim;
  double thr, value;
  int left, right; /* node indices */
} node;

struct dcsim_gbm {
  size_t dim;
  double base, shrinkage;
  size_t n_nodes, cap_nodes;
  node *nodes;
  size_t n_trees;
  int *roots;
};

typedef struct fit_ctx {
  dcsim_gbm_t *m;
  size_t n, dim;
  const double *x, *w;
  double *r; /* residuals */
  size_t *tmp;
  double *key;
  const dcsim_gbm_params *p;
} fit_ctx;

void dcsim_gbm_free(dcsim_gbm_t *m) {
  if (!m) return;
  free(m->nodes);
  free(m->roots);
  free(m);
}

static int new_node(dcsim_gbm_t *m) {
  if (m->n_nodes == m->cap_nodes) {
    size_t c = m->cap_nodes ? 2 * m->cap_nodes : 256;
    if (DCSIM_RESIZE(m->nodes, c)) return -1;
    m->cap_nodes = c;
  }
  m->nodes[m->n_nodes] = (node){ -1, 0, 0, -1, -1 };
  return (int)m->n_nodes++;
}

/* weighted mean of the residuals of idx */
static double leaf_value(const fit_ctx *c, const size_t *idx, size_t n) {
  double sw = 0, s = 0;
  for (size_t i = 0; i < n; i++) {
    sw += c->w[idx[i]];
    s += c->w[idx[i]] * c->r[idx[i]];
  }
  return sw > 0 ? s / sw : 0;
}

static int grow(fit_ctx *c, size_t *idx, size_t n, unsigned depth) {
  int id = new_node(c->m);
  if (id < 0) return -1;
  int dim = -1;
  double thr = 0;
  if (depth < c->p->depth && n >= 2 * (c->p->min_leaf ? c->p->min_leaf : 1)) {
    dcsim__tree_data t = { c->dim, c->x, NULL, c->r, c->w, c->key };
    double gain;
    dcsim__tree_best_split(&t, idx, n, c->p->min_leaf, &dim, &thr, &gain);
  }
  if (dim < 0) {
    c->m->nodes[id].value = leaf_value(c, idx, n);
    return id;
  }
  size_t nl = 0;
  for (size_t i = 0; i < n; i++)
    if (c->x[idx[i] * c->dim + (size_t)dim] <= thr) c->tmp[nl++] = idx[i];
  size_t nr = nl;
  for (size_t i = 0; i < n; i++)
    if (c->x[idx[i] * c->dim + (size_t)dim] > thr) c->tmp[nr++] = idx[i];
  memcpy(idx, c->tmp, n * sizeof *idx);
  int l = grow(c, idx, nl, depth + 1);
  int r = l < 0 ? -1 : grow(c, idx + nl, n - nl, depth + 1);
  if (r < 0) return -1;
  c->m->nodes[id].dim = dim; /* nodes may have moved: index, do not keep pointers */
  c->m->nodes[id].thr = thr;
  c->m->nodes[id].left = l;
  c->m->nodes[id].right = r;
  return id;
}

static double tree_at(const dcsim_gbm_t *m, int id, const double *x) {
  while (m->nodes[id].dim >= 0)
    id = x[m->nodes[id].dim] <= m->nodes[id].thr ? m->nodes[id].left : m->nodes[id].right;
  return m->nodes[id].value;
}

double dcsim_gbm_predict(const dcsim_gbm_t *m, const double *x) {
  double f = m->base;
  for (size_t t = 0; t < m->n_trees; t++) f += m->shrinkage * tree_at(m, m->roots[t], x);
  return f;
}

/* Friedman's least-squares boosting: residuals, a tree on them, a shrunken step (f holds the
 * current prediction of every point) */
static int boost(fit_ctx *c, const double *y, size_t *idx, double *f) {
  dcsim_gbm_t *m = c->m;
  for (size_t i = 0; i < c->n; i++) f[i] = m->base;
  for (unsigned t = 0; t < c->p->n_trees; t++) {
    for (size_t i = 0; i < c->n; i++) {
      c->r[i] = y[i] - f[i];
      idx[i] = i;
    }
    int root = grow(c, idx, c->n, 0);
    if (root < 0) return -1;
    m->roots[m->n_trees++] = root;
    for (size_t i = 0; i < c->n; i++) f[i] += m->shrinkage * tree_at(m, root, c->x + i * c->dim);
  }
  return 0;
}

int dcsim_gbm_fit(size_t n, size_t dim, const double *x, const double *y, const double *w,
                  const dcsim_gbm_params *p, dcsim_gbm_t **out, dcsim_error *err) {
  *out = NULL;
  if (n == 0 || dim == 0 || !(p->shrinkage > 0) || p->n_trees == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "GBM: need points, coordinates, trees, shrinkage");
  dcsim_gbm_t *m = calloc(1, sizeof *m);
  double *ones = w ? NULL : malloc(n * sizeof *ones), *r = malloc(n * sizeof *r),
         *key = malloc(n * sizeof *key), *f = malloc(n * sizeof *f);
  size_t *idx = malloc(n * sizeof *idx), *tmp = malloc(n * sizeof *tmp);
  int rc = 0;
  if (!m || (!w && !ones) || !r || !key || !f || !idx || !tmp ||
      !(m->roots = malloc(p->n_trees * sizeof *m->roots))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; ones && i < n; i++) ones[i] = 1;
  m->dim = dim;
  m->shrinkage = p->shrinkage;
  fit_ctx c = { m, n, dim, x, w ? w : ones, r, tmp, key, p };
  double sw = 0, s = 0;
  for (size_t i = 0; i < n; i++) {
    sw += c.w[i];
    s += c.w[i] * y[i];
  }
  m->base = sw > 0 ? s / sw : 0; /* F0: the weighted mean */
  if (boost(&c, y, idx, f)) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  *out = m;
  m = NULL;
out:
  dcsim_gbm_free(m);
  free(ones);
  free(r);
  free(key);
  free(f);
  free(idx);
  free(tmp);
  return rc;
}
