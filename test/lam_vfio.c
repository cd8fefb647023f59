// SPDX-License-Identifier: GPL-2.0
/*
 * lam_vfio: VFIO type1 pins a LAM process's pages by the process's own
 * untag rule (drivers/vfio/vfio_iommu_type1.c, vaddr_get_pfns()).
 *
 * The guest (tools/lam-run --devices edu-iommu, variant lam-vfio) has an
 * emulated Intel IOMMU and QEMU's "edu" PCI device, whose DMA engine
 * copies between its 4 KiB buffer (at 0x40000 in its own space) and an
 * IOVA.  The test binds edu to vfio-pci, maps a buffer for DMA with
 * VFIO_IOMMU_MAP_DMA, and has the device copy one page of the buffer to
 * the next: the copy is the proof that the IOMMU maps the IOVA to the very
 * pages the process sees.  With LAM enabled a tagged vaddr must map the
 * same pages as the untagged one; without LAM (or before enabling it) the
 * tagged vaddr is an address nothing is mapped at: EFAULT.  Expected
 * results come from lam_expect.h (the cell's facts).
 */
#include "lam_common.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/vfio.h>
#include "lam_harness.h"

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8
#define EDU_ID		0x00	/* 0x010000ed: version 1.0, "ed" */
#define EDU_LIVENESS	0x04	/* reads back the complement */
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_CNT	0x90
#define EDU_DMA_CMD	0x98	/* bit 0 start/busy, bit 1 device -> RAM */
#define EDU_DMA_BUF	0x40000UL /* the device's buffer, 4 KiB */
#define EDU_DMA_CHUNK	(PAGE_SZ / 2)
#define EDU_IOVA	0x100000UL /* below edu's 28-bit DMA mask */
#define BUF_PAGES	2

struct edu {
	char bdf[256];
	int container, group, device;
	volatile uint8_t *bar0;
	size_t bar0_size;
};

static int sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static unsigned long sysfs_hex(const char *dir, const char *file)
{
	char path[512], buf[32] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ~0UL;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return strtoul(buf, NULL, 16);
}

/* the edu device's PCI address into @bdf; 0 if found */
static int edu_find(char *bdf, size_t len)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	int rc = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char dir[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", e->d_name);
		if (sysfs_hex(dir, "vendor") == EDU_VENDOR &&
		    sysfs_hex(dir, "device") == EDU_DEVICE) {
			snprintf(bdf, len, "%s", e->d_name);
			rc = 0;
			break;
		}
	}
	closedir(d);
	return rc;
}

/* bind @bdf to vfio-pci (once per boot) and return its IOMMU group number */
static int edu_bind(const char *bdf)
{
	char path[300], link[300];
	ssize_t n;
	char *slash;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override", bdf);
		if (sysfs_write(path, "vfio-pci") || sysfs_write("/sys/bus/pci/drivers_probe", bdf))
			return -1;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = 0;
	slash = strrchr(link, '/');
	return slash ? atoi(slash + 1) : -1;
}

static uint64_t edu_rd(struct edu *e, unsigned long off)
{
	return *(volatile uint64_t *)(e->bar0 + off);
}

static uint32_t edu_rd32(struct edu *e, unsigned long off)
{
	return *(volatile uint32_t *)(e->bar0 + off);
}

static void edu_wr(struct edu *e, unsigned long off, uint64_t v)
{
	*(volatile uint64_t *)(e->bar0 + off) = v;
}

static void edu_wr32(struct edu *e, unsigned long off, uint32_t v)
{
	*(volatile uint32_t *)(e->bar0 + off) = v;
}

/* one DMA transfer of @cnt bytes; 0 when the device says it is done */
static int edu_dma(struct edu *e, uint64_t src, uint64_t dst, uint64_t cnt, bool to_ram)
{
	edu_wr(e, EDU_DMA_SRC, src);
	edu_wr(e, EDU_DMA_DST, dst);
	edu_wr(e, EDU_DMA_CNT, cnt);
	edu_wr(e, EDU_DMA_CMD, 1 | (to_ram ? 2 : 0));
	/* edu runs the transfer from a 100 ms timer */
	for (int i = 0; i < 10000; i++) {
		if (!(edu_rd(e, EDU_DMA_CMD) & 1))
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * The device copies IOVA page 0 to IOVA page 1 through its buffer, half a
 * page at a time: QEMU 7.2's edu refuses (and stops the machine for) a
 * transfer that ends at the end of its buffer, an off-by-one.
 */
static int edu_copy_page(struct edu *e, unsigned long iova)
{
	for (unsigned long off = 0; off < PAGE_SZ; off += EDU_DMA_CHUNK) {
		if (edu_dma(e, iova + off, EDU_DMA_BUF, EDU_DMA_CHUNK, false) ||
		    edu_dma(e, EDU_DMA_BUF, iova + PAGE_SZ + off, EDU_DMA_CHUNK, true))
			return -1;
	}
	return 0;
}

static int map_dma(struct edu *e, const void *vaddr, unsigned long iova, size_t size)
{
	struct vfio_iommu_type1_dma_map map = {
		.argsz = sizeof(map),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (unsigned long)vaddr,
		.iova = iova,
		.size = size,
	};

	return ioctl(e->container, VFIO_IOMMU_MAP_DMA, &map) ? errno : 0;
}

static int unmap_dma(struct edu *e, unsigned long iova, size_t size)
{
	struct vfio_iommu_type1_dma_unmap unmap = {
		.argsz = sizeof(unmap),
		.iova = iova,
		.size = size,
	};

	return ioctl(e->container, VFIO_IOMMU_UNMAP_DMA, &unmap) ? errno : 0;
}

/* edu bound to vfio-pci in a type1 container, BAR0 mapped, DMA on; @buf */
static void edu_setup(struct __test_metadata *_metadata, struct edu *e, unsigned char **buf)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	struct vfio_region_info reg = { .argsz = sizeof(reg) };
	char path[64];
	uint16_t cmd;
	int grp;

	ASSERT_EQ(0, edu_find(e->bdf, sizeof(e->bdf)))
		TH_LOG("no edu PCI device (%04x:%04x): run with tools/lam-run --devices edu-iommu",
		       EDU_VENDOR, EDU_DEVICE);
	grp = edu_bind(e->bdf);
	ASSERT_LE(0, grp) TH_LOG("binding %s to vfio-pci: %s", e->bdf, strerror(errno));

	e->container = open("/dev/vfio/vfio", O_RDWR);
	ASSERT_LE(0, e->container) TH_LOG("/dev/vfio/vfio: %s", strerror(errno));
	ASSERT_EQ(VFIO_API_VERSION, ioctl(e->container, VFIO_GET_API_VERSION));
	ASSERT_EQ(1, ioctl(e->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU));

	snprintf(path, sizeof(path), "/dev/vfio/%d", grp);
	e->group = open(path, O_RDWR);
	ASSERT_LE(0, e->group) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, ioctl(e->group, VFIO_GROUP_GET_STATUS, &status));
	ASSERT_TRUE(!!(status.flags & VFIO_GROUP_FLAGS_VIABLE)) TH_LOG("group %d not viable", grp);
	ASSERT_EQ(0, ioctl(e->group, VFIO_GROUP_SET_CONTAINER, &e->container));
	ASSERT_EQ(0, ioctl(e->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU));
	e->device = ioctl(e->group, VFIO_GROUP_GET_DEVICE_FD, e->bdf);
	ASSERT_LE(0, e->device) TH_LOG("device fd of %s: %s", e->bdf, strerror(errno));

	/* BAR0 mapped, memory decoding and bus mastering on */
	reg.index = VFIO_PCI_BAR0_REGION_INDEX;
	ASSERT_EQ(0, ioctl(e->device, VFIO_DEVICE_GET_REGION_INFO, &reg));
	ASSERT_TRUE(!!(reg.flags & VFIO_REGION_INFO_FLAG_MMAP));
	e->bar0_size = reg.size;
	e->bar0 = mmap(NULL, reg.size, PROT_READ | PROT_WRITE, MAP_SHARED, e->device, reg.offset);
	ASSERT_NE(MAP_FAILED, e->bar0);
	reg.index = VFIO_PCI_CONFIG_REGION_INDEX;
	ASSERT_EQ(0, ioctl(e->device, VFIO_DEVICE_GET_REGION_INFO, &reg));
	ASSERT_EQ(2, pread(e->device, &cmd, 2, reg.offset + 4));
	cmd |= 0x6;	/* PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER */
	ASSERT_EQ(2, pwrite(e->device, &cmd, 2, reg.offset + 4));

	*buf = mmap(NULL, BUF_PAGES * PAGE_SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, *buf);
}

/* closing the container unmaps and unpins everything */
static void edu_teardown(struct edu *e)
{
	if (e->bar0 && e->bar0 != MAP_FAILED)
		munmap((void *)e->bar0, e->bar0_size);
	close(e->device);
	close(e->group);
	close(e->container);
}

FIXTURE(vfio) {
	struct edu e;
	unsigned char *buf;
};
FIXTURE_SETUP(vfio) { edu_setup(_metadata, &self->e, &self->buf); }
FIXTURE_TEARDOWN(vfio) { edu_teardown(&self->e); }

/* the device answers through the IOMMU setup at all (no LAM involved) */
TEST_F(vfio, edu_registers)
{
	EXPECT_EQ(0x010000edU, edu_rd32(&self->e, EDU_ID));
	edu_wr32(&self->e, EDU_LIVENESS, 0x12345678);
	EXPECT_EQ(~0x12345678U, edu_rd32(&self->e, EDU_LIVENESS));
}

static void fill(unsigned char *p, unsigned char seed)
{
	for (unsigned long i = 0; i < PAGE_SZ; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static unsigned long nonzero(const unsigned char *p, unsigned long len)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < len; i++)
		n += p[i] != 0;
	return n;
}

/* the baseline: an untagged vaddr, the device copies page 0 to page 1 */
TEST_F(vfio, dma_untagged)
{
	fill(self->buf, 1);
	memset(self->buf + PAGE_SZ, 0, PAGE_SZ);
	ASSERT_EQ(0, map_dma(&self->e, self->buf, EDU_IOVA, BUF_PAGES * PAGE_SZ));
	ASSERT_EQ(0, edu_copy_page(&self->e, EDU_IOVA)) TH_LOG("DMA did not complete");
	EXPECT_EQ(0, memcmp(self->buf, self->buf + PAGE_SZ, PAGE_SZ));
	EXPECT_EQ(0, unmap_dma(&self->e, EDU_IOVA, BUF_PAGES * PAGE_SZ));
}

/*
 * The control of the copy check: with only page 0 mapped, the IOMMU blocks
 * the device's write to page 1, which stays zero (the DMA is translated,
 * and a copy that did not land is seen).
 */
TEST_F(vfio, dma_unmapped_page_blocked)
{
	fill(self->buf, 2);
	memset(self->buf + PAGE_SZ, 0, PAGE_SZ);
	ASSERT_EQ(0, map_dma(&self->e, self->buf, EDU_IOVA, PAGE_SZ));
	ASSERT_EQ(0, edu_copy_page(&self->e, EDU_IOVA)) TH_LOG("DMA did not complete");
	EXPECT_EQ(0UL, nonzero(self->buf + PAGE_SZ, PAGE_SZ)) TH_LOG("the unmapped page was written");
	EXPECT_EQ(0, unmap_dma(&self->e, EDU_IOVA, PAGE_SZ));
}

/* a tagged vaddr before any enable: nothing is mapped there */
TEST_F(vfio, dma_tagged_lam_off)
{
	void *t = lam_tag(self->buf, &lam_u57, 0x2a);

	EXPECT_EQ(exp_ptr_errno(LAM_PTR_TAGGED, false), map_dma(&self->e, t, EDU_IOVA,
								 BUF_PAGES * PAGE_SZ));
}

/* a kernel-half vaddr is refused in every mode */
TEST_F(vfio, dma_kernel_vaddr)
{
	EXPECT_NE(0, map_dma(&self->e, (void *)0xffff888000000000UL, EDU_IOVA, PAGE_SZ));
}

FIXTURE(vfio_lam) {
	struct edu e;
	unsigned char *buf;
};
FIXTURE_SETUP(vfio_lam) { edu_setup(_metadata, &self->e, &self->buf); }
FIXTURE_TEARDOWN(vfio_lam) { edu_teardown(&self->e); }
FIXTURE_VARIANT(vfio_lam) {
	unsigned long nbits;
};
FIXTURE_VARIANT_ADD(vfio_lam, u57) { .nbits = 6 };
FIXTURE_VARIANT_ADD(vfio_lam, u48) { .nbits = 15 };

/*
 * LAM on, the buffer mapped through a tagged vaddr: the device's copy is
 * seen through the untagged and the tagged pointer alike (the pinned pages
 * are the process's); without LAM the tagged vaddr maps nothing (EFAULT).
 */
TEST_F(vfio_lam, dma_tagged)
{
	int want = exp_enable(variant->nbits, LAM_FRESH, false);
	const struct lam_mode *m = lam_mode_of(variant->nbits);
	bool lam_on = want == 0;
	unsigned char *t = lam_tag(self->buf, m, 0x15);
	int rc;

	LAM_SETUP_ENABLE(want, variant->nbits);
	memset(self->buf, 0, BUF_PAGES * PAGE_SZ);
	rc = map_dma(&self->e, t, EDU_IOVA, BUF_PAGES * PAGE_SZ);
	EXPECT_EQ(exp_ptr_errno(LAM_PTR_TAGGED, lam_on), rc);
	if (rc)
		return;
	/* written through the tagged pointer, copied by the device */
	fill(t, 3);
	ASSERT_EQ(0, edu_copy_page(&self->e, EDU_IOVA)) TH_LOG("DMA did not complete");
	EXPECT_EQ(0, memcmp(self->buf, self->buf + PAGE_SZ, PAGE_SZ));
	EXPECT_EQ(0, memcmp(t, t + PAGE_SZ, PAGE_SZ));
	EXPECT_EQ(0, unmap_dma(&self->e, EDU_IOVA, BUF_PAGES * PAGE_SZ));
}

LAM_HARNESS_MAIN(NULL)
