#!/bin/sh
# The guest job of test/hwasan/run (busybox sh, cwd /root): every case of
# lam_hwasan_cases, then bzip2's own test (its Makefile's "test" target:
# three samples compressed and decompressed, compared with cmp), then lz4's
# frame API tester and CLI round trips (from its Makefile's test-lz4-basic).  Markers
# delimit each part for the host: HWASAN-BEGIN NAME / HWASAN-END NAME
# status=N.
for c in clean-io use-after-free heap-overflow double-free syscall-after-free; do
	echo "HWASAN-BEGIN $c"
	./lam_hwasan_cases "$c" 2>&1
	echo "HWASAN-END $c status=$?"
done
echo "HWASAN-BEGIN bzip2"
st=0
for i in 1 2 3; do
	./bzip2 -"$i" <"sample$i.ref" >"sample$i.rb2" || st=$?
	[ "$i" = 3 ] && d=-ds || d=-d
	./bzip2 "$d" <"sample$i.bz2" >"sample$i.tst" || st=$?
	if cmp "sample$i.bz2" "sample$i.rb2" && cmp "sample$i.tst" "sample$i.ref"; then
		echo "bzip2: sample$i: compressed and decompressed as the reference"
	else
		echo "bzip2: sample$i: differs from the reference"
		st=1
	fi
done
echo "HWASAN-END bzip2 status=$st"
echo "HWASAN-BEGIN lz4"
st=0
./frametest -s1 -i64 || st=$?
for g in 0 16KB 20KB 1MB; do
	if ./datagen -g"$g" >dg && ./lz4 <dg >dg.lz4 && ./lz4 -d <dg.lz4 >dg.dec && cmp dg dg.dec; then
		echo "lz4: datagen -g$g: round trip equal"
	else
		st=1
	fi
done
for o in -BI --no-crc; do
	if ./datagen >dg && ./lz4 "$o" <dg >dg.lz4 && ./lz4 -t <dg.lz4; then
		echo "lz4: $o: the compressed data tests good"
	else
		st=1
	fi
done
echo "HWASAN-END lz4 status=$st"
