/* Bit and digit arithmetic shared by the topologies (internal to topo/).
 * Nodes of a W^D lattice are numbered x = sum d_i W^i (thesis App. A.1). */
#ifndef TOPO_LATTICE_H
#define TOPO_LATTICE_H

#include <stdint.h>

/* x without bit i: the bits above i shift down by one. */
static inline uint32_t bit_remove(uint32_t x, unsigned i)
{
    return (x & ((1u << i) - 1)) | ((x >> (i + 1)) << i);
}

/* The inverse: x with bit value b inserted at position i. */
static inline uint32_t bit_insert(uint32_t x, unsigned i, uint32_t b)
{
    return (x & ((1u << i) - 1)) | (b << i) | ((x >> i) << (i + 1));
}

/* Digit i of x in base w, where pw = w^i. */
static inline uint32_t digit_get(uint32_t x, uint32_t pw, uint32_t w) { return x / pw % w; }

/* x with digit i (pw = w^i) replaced by v. */
static inline uint32_t digit_set(uint32_t x, uint32_t pw, uint32_t w, uint32_t v)
{
    return x - digit_get(x, pw, w) * pw + v * pw;
}

/* x without digit i: the digits above shift down. */
static inline uint32_t digit_remove(uint32_t x, uint32_t pw, uint32_t w)
{
    return x % pw + x / (pw * w) * pw;
}

/* The inverse: digit value v inserted at position i. */
static inline uint32_t digit_insert(uint32_t x, uint32_t pw, uint32_t w, uint32_t v)
{
    return x % pw + v * pw + x / pw * pw * w;
}

#endif
