/*
 * Private to the verify module: byte-order helpers shared by the digests
 * and the header code, and the CRCs no library computes.
 */
#ifndef SB_VERIFY_IMPL_H
#define SB_VERIFY_IMPL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Byte-at-a-time loads and stores: the on-disk format and the hash specs are
 * defined in bytes, so this is right on any host, never touches unaligned
 * pointers, and compilers turn each into a single move on x86.
 */
static inline uint32_t sb_load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t sb_load_le64(const unsigned char *p)
{
	return (uint64_t)sb_load_le32(p) | (uint64_t)sb_load_le32(p + 4) << 32;
}

static inline uint32_t sb_load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void sb_store_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void sb_store_le64(unsigned char *p, uint64_t v)
{
	sb_store_le32(p, (uint32_t)v);
	sb_store_le32(p + 4, (uint32_t)(v >> 32));
}

static inline void sb_store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* dump.c: all of len bytes written to fd (through EINTR); 0 or a
 * negative errno (-EIO for a write that wrote nothing). */
int sb_verify_write_all(int fd, const unsigned char *p, uint64_t len);

/* crc_small.c: fio's CRC-7 and CRC-16 (see there for their definitions). */
unsigned int sb_crc7(const void *data, size_t len);
unsigned int sb_crc16(const void *data, size_t len);

#endif
