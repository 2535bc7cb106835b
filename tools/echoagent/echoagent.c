/*
 * echoagent: the floor of the PDU-level benchmark. The least any agent can
 * cost on pmcd's pipes: it sends its CREDS, ignores everything but FETCH,
 * and answers each FETCH with a RESULT holding no values for every PMID it
 * was asked for. Blocking reads and writes, no library, no allocation.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

enum { PDU_RESULT = 0x7001, PDU_FETCH = 0x7003, PDU_CREDS = 0x700c };
enum { MAXPDU = 1 << 20 };

static unsigned char in[MAXPDU], out[MAXPDU];

static int read_full(unsigned char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(0, buf + got, n - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int write_full(const unsigned char *buf, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(1, buf + done, n - done);
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return ntohl(v);
}

static void put32(unsigned char *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

int main(void)
{
	/* CREDS: header, one credential: CVERSION (1), PDU version 2. */
	unsigned char creds[20] = {0};
	put32(creds, sizeof creds);
	put32(creds + 4, PDU_CREDS);
	put32(creds + 8, (uint32_t)getpid());
	put32(creds + 12, 1);
	creds[16] = 1;
	creds[17] = 2;
	if (write_full(creds, sizeof creds) < 0)
		return 1;
	for (;;) {
		if (read_full(in, 12) < 0)
			return 0;
		uint32_t len = get32(in), type = get32(in + 4);
		if (len < 12 || len > MAXPDU)
			return 1;
		if (read_full(in + 12, len - 12) < 0)
			return 0;
		/* FETCH: header, ctxnum, timestamp (2 words), numpmid, pmids. */
		if (type != PDU_FETCH || len < 28)
			continue;
		uint32_t n = get32(in + 24);
		if (n > (len - 28) / 4)
			n = (len - 28) / 4;
		/* RESULT: header, timestamp (2 words), numpmid, {pmid, numval 0}. */
		uint32_t olen = 24 + 8 * n;
		put32(out, olen);
		put32(out + 4, PDU_RESULT);
		put32(out + 8, 0);
		put32(out + 12, 0);
		put32(out + 16, 0);
		put32(out + 20, n);
		for (uint32_t i = 0; i < n; i++) {
			memcpy(out + 24 + 8 * i, in + 28 + 4 * i, 4);
			put32(out + 28 + 8 * i, 0);
		}
		if (write_full(out, olen) < 0)
			return 1;
	}
}
