/*
 * Verifiable block contents (verify=): each interval of a written block
 * starts with a header that names where it belongs and which write made it,
 * and checksums the rest, so a read-back tells a corrupt block from a
 * misplaced one (another offset's data) and from a stale one (an older
 * write of the same offset). Pure functions: any thread, no shared state.
 */
#ifndef SB_VERIFY_H
#define SB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

enum sb_verify_kind {
	SB_VERIFY_NONE = 0,
	SB_VERIFY_MD5,
	SB_VERIFY_CRC32C,
	SB_VERIFY_SHA256,
	SB_VERIFY_XXHASH,
	SB_VERIFY_PATTERN, /* no header: every byte is verify_pattern */
	SB_VERIFY_NULL,	   /* fio's "null": write headers, check nothing */
	SB_VERIFY_CRC7,
	SB_VERIFY_CRC16,
	SB_VERIFY_CRC32,
	SB_VERIFY_CRC64,
	SB_VERIFY_SHA1,
	SB_VERIFY_SHA512,
	SB_VERIFY_SHA3_224,
	SB_VERIFY_SHA3_256,
	SB_VERIFY_SHA3_384,
	SB_VERIFY_SHA3_512,
	SB_VERIFY_PATTERN_HDR, /* a header, then verify_pattern */
	SB_VERIFY_META,	       /* fio's "meta": the header alone is checked */
	SB_VERIFY_KINDS,
};

/* The longest pattern with %o slots (fio's MAX_PATTERN_SIZE). */
#define SB_VERIFY_PATTERN_MAX 512

/* The largest digest a kind stores (sha512, sha3-512). */
#define SB_VERIFY_DIGEST_MAX 64

struct sb_verify_cfg {
	int kind;	   /* enum sb_verify_kind */
	uint64_t interval; /* bytes per header; 0: the whole block */
	/* verify_pattern: the payload after each header (the whole block for
	 * SB_VERIFY_PATTERN); NULL: payload drawn from the write's seed. The
	 * caller owns it; it outlives every call that uses the cfg. */
	const unsigned char *pattern;
	size_t pattern_len;
	/* verify_pattern's %o: where each 8-byte slot for the offset of the
	 * block (the I/O, as fio's paste_blockoff) starts in pattern. */
	const size_t *pattern_offs;
	unsigned pattern_noffs;
	/* verify_offset: each header swapped with the bytes this far into its
	 * interval after the fill, and back before the check. 0: none, else
	 * at least the header's size, and the header fits after it in every
	 * interval (sb_verify_offset_fits). */
	uint64_t hdr_offset;
};

/* Bytes of the header each interval starts with (0 for PATTERN). */
size_t sb_verify_header_size(const struct sb_verify_cfg *c);

/* Whether c->hdr_offset is usable for blocks of at least min_len bytes:
 * past the header, and the header fits after it in every interval. */
int sb_verify_offset_fits(const struct sb_verify_cfg *c, uint64_t min_len);

/*
 * Fill buf (len bytes, to be written at offset) with verifiable data for the
 * write identified by seed. buf is owned by the caller.
 */
void sb_verify_fill(const struct sb_verify_cfg *c, void *buf, uint64_t len,
		    uint64_t offset, uint64_t seed);

/*
 * Check len bytes read back from offset against the write identified by
 * seed. Returns 0, or -EILSEQ with why set to one line naming the absolute
 * offset of the first bad interval, what is wrong (no header, misplaced,
 * stale, corrupt) and what was expected against what was found. With
 * hdr_offset, the headers are swapped back in buf, which then holds the
 * block as it was filled.
 */
/* A seed for sb_verify_check that takes any write's data: each header's own
 * seed is believed (a read-only job checks what an earlier run wrote). */
#define SB_VERIFY_ANY_SEED UINT64_MAX

int sb_verify_check(const struct sb_verify_cfg *c, void *buf, uint64_t len,
		    uint64_t offset, uint64_t seed, char *why, size_t whylen);

/* Where a check failed: the interval (or the headerless block) and whether
 * its header was the fault (fio's "hdr_fail") or its data. */
struct sb_verify_fault {
	uint64_t offset, length; /* absolute offset in the file */
	uint64_t at;		 /* its start within the buffer checked */
	int header;
};

/* sb_verify_check, also saying where it failed when it returns -EILSEQ. */
int sb_verify_check_fault(const struct sb_verify_cfg *c, void *buf,
			  uint64_t len, uint64_t offset, uint64_t seed,
			  char *why, size_t whylen, struct sb_verify_fault *f);

/*
 * verify_dump: len bytes of buf into fio's dump file for a block of
 * target at offset, "<basename of target>.<offset>.<type>" in dir (NULL:
 * the current directory; type: received, expected, hdr_fail). Only a regular
 * file is written, never through a symbolic link, never a device, never target
 * itself (compared by device and inode). 0, or a negative errno with err
 * saying what was refused or failed; name gets the file's name.
 */
int sb_verify_dump(const char *dir, const char *target, uint64_t offset,
		   const char *type, const void *buf, uint64_t len, char *name,
		   size_t namelen, char *err, size_t errlen);

/* The kind's fio name ("sha3-256"), or "unknown". */
const char *sb_verify_kind_name(int kind);

/*
 * The digest fio's verify=kind stores for data: out receives the value fio
 * computes for the same bytes (the CRCs and xxhash as little-endian
 * integers, the hashes as their bytes). Returns its size in bytes, 0 for a
 * kind without one. out holds SB_VERIFY_DIGEST_MAX bytes.
 */
size_t sb_verify_digest(int kind, const void *data, size_t len,
			unsigned char *out);

/* CRC-32C as iSCSI and ext4 define it (inverted on entry and exit), so a
 * running value chains: crc of a then b == sb_crc32c(sb_crc32c(0, a), b). */
uint32_t sb_crc32c(uint32_t crc, const void *data, size_t len);

#endif
