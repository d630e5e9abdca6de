/* test_fileio.c — whole-file reading (util/fileio.h): the bytes and their length, the rules each
 * reader sets (a size limit, NUL bytes) with the reader's own words, a file that is not there, a
 * file larger than one read chunk, and a pipe, which has no size to measure beforehand; a directory
 * written all or nothing. */
#include "util/fileio.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcsim/lib.h"

#include "check.h"

static void put(const char *path, const char *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK_INT(fwrite(bytes, 1, n, f), n);
  fclose(f);
}

static void test_plain(const char *tmp) {
  char p[512], *text = NULL;
  size_t len = 0;
  dcsim_error err = { 0 };
  snprintf(p, sizeof p, "%s/a.csv", tmp);
  put(p, "cores,GB/s\n1,13.75\n", 19);
  CHECK_INT(dcsim__file_read(p, NULL, &text, &len, &err), 0);
  CHECK_INT(len, 19);
  CHECK_STR(text, "cores,GB/s\n1,13.75\n");
  free(text);
  text = NULL;
  put(p, "", 0); /* empty: "" of length 0 */
  CHECK_INT(dcsim__file_read(p, NULL, &text, &len, &err), 0);
  CHECK_INT(len, 0);
  CHECK_STR(text, "");
  free(text);
}

static void test_rules(const char *tmp) {
  char p[512], *text = NULL;
  size_t len = 0;
  dcsim_error err = { 0 };
  const dcsim_file_rules rules = { 5, "file too large (5 bytes at most)", "holds a NUL byte", 0 };
  snprintf(p, sizeof p, "%s/b.txt", tmp);
  put(p, "2.385", 5); /* exactly the limit */
  CHECK_INT(dcsim__file_read(p, &rules, &text, &len, &err), 0);
  CHECK_STR(text, "2.385");
  free(text);
  text = NULL;
  put(p, "2.3857", 6);
  CHECK_INT(dcsim__file_read(p, &rules, &text, &len, &err), DCSIM_ERANGE);
  CHECK_STR(err.msg, "file too large (5 bytes at most)");
  CHECK_STR(err.file, p);
  CHECK_INT(err.line, 0);
  CHECK(text == NULL);
  static const char nul[5] = { '2', '\0', '3', '8', '5' };
  put(p, nul, sizeof nul);
  CHECK_INT(dcsim__file_read(p, &rules, &text, &len, &err), DCSIM_EPARSE);
  CHECK_STR(err.msg, "holds a NUL byte");
  CHECK(text == NULL);
  CHECK_INT(dcsim__file_read(p, NULL, &text, &len, &err), 0); /* no rules: the NUL is read */
  CHECK_INT(len, 5);
  CHECK(text && memcmp(text, nul, sizeof nul) == 0 && text[5] == '\0');
  free(text);
}

static void test_missing(const char *tmp) {
  char p[512], *text = NULL;
  dcsim_error err = { 0 };
  snprintf(p, sizeof p, "%s/none.xml", tmp);
  CHECK_INT(dcsim__file_read(p, NULL, &text, NULL, &err), DCSIM_EIO);
  CHECK_STR(err.msg, "cannot open: No such file or directory");
  CHECK_STR(err.file, p);
  CHECK(text == NULL);
}

/* 200000 bytes: several 64 KiB chunks and reallocations */
static void test_large(const char *tmp) {
  char p[512], *text = NULL;
  size_t len = 0, n = 200000;
  dcsim_error err = { 0 };
  char *big = malloc(n);
  CHECK(big != NULL);
  if (!big) return;
  for (size_t i = 0; i < n; i++) big[i] = (char)('a' + (i * 7) % 26);
  snprintf(p, sizeof p, "%s/big.txt", tmp);
  put(p, big, n);
  CHECK_INT(dcsim__file_read(p, NULL, &text, &len, &err), 0);
  CHECK_INT(len, n);
  CHECK(text && memcmp(text, big, n) == 0 && text[n] == '\0');
  free(text);
  text = NULL;
  const dcsim_file_rules rules = { 131072, "input larger than 131072 bytes", NULL, 0 };
  CHECK_INT(dcsim__file_read(p, &rules, &text, &len, &err), DCSIM_ERANGE);
  CHECK_STR(err.msg, "input larger than 131072 bytes");
  free(big);
}

/* a pipe: read to its end */
static void test_pipe(void) {
  int fd[2];
  CHECK_INT(pipe(fd), 0);
  const char *msg = "name,time_s\nalaro,12.5\n";
  CHECK_INT(write(fd[1], msg, strlen(msg)), strlen(msg));
  close(fd[1]);
  char p[64], *text = NULL;
  size_t len = 0;
  dcsim_error err = { 0 };
  snprintf(p, sizeof p, "/proc/self/fd/%d", fd[0]);
  CHECK_INT(dcsim__file_read(p, NULL, &text, &len, &err), 0);
  CHECK_STR(text, msg);
  CHECK_INT(len, strlen(msg));
  free(text);
  close(fd[0]);
}

/* inputs must be regular files: a FIFO (which would block the open), a directory, a device are
 * refused with the reason, before any open */
static void test_not_regular(const char *tmp) {
  char p[512], *text = NULL;
  dcsim_error err = { 0 };
  const dcsim_file_rules rules = { 0, NULL, NULL, 1 };
  snprintf(p, sizeof p, "%s/fifo.xml", tmp);
  CHECK_INT(mkfifo(p, 0600), 0);
  CHECK_INT(dcsim__file_read(p, &rules, &text, NULL, &err), DCSIM_EIO);
  CHECK_STR(err.msg,
            "is a FIFO (named pipe), not a regular file: dcsim reads its inputs from files");
  CHECK_INT(dcsim__file_check_input(tmp, &err), DCSIM_EIO);
  CHECK_STR(err.msg, "is a directory, not a regular file: dcsim reads its inputs from files");
  CHECK_INT(dcsim__file_check_input("/dev/zero", &err), DCSIM_EIO);
  CHECK_STR(err.msg,
            "is a character device, not a regular file: dcsim reads its inputs from files");
  CHECK_STR(err.file, "/dev/zero");
  CHECK(text == NULL);
  unlink(p);
}

/* entries of directory d, . and .. aside; -1 when it cannot be opened */
static int n_entries(const char *d) {
  DIR *dh = opendir(d);
  if (!dh) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(dh));)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(dh);
  return n;
}

/* dcsim__dir_write_atomic (calibrate cpu --template): a new or empty directory gets all
 * the files; a directory with something in it, or a failure while writing (the third file's name
 * names a missing subfolder), leaves nothing behind: no target, no temporary directory. */
static void test_dir_atomic(const char *tmp) {
  char d[512], p[600], *text = NULL;
  dcsim_error err = { 0 };
  const char *names[] = { "machine.xml", "flops.csv", "no-such/DRAM.csv" };
  const char *texts[] = { "<m/>\n", "frequency,threads,value,unit\n", "x\n" };
  snprintf(d, sizeof d, "%s/deep/cal/", tmp); /* missing parents; a trailing slash */
  CHECK_INT(dcsim__dir_write_atomic(d, names, texts, 2, &err), 0);
  snprintf(p, sizeof p, "%s/deep/cal/flops.csv", tmp);
  CHECK_INT(dcsim__file_read_text(p, &text, &err), 0);
  CHECK_STR(text, "frequency,threads,value,unit\n");
  free(text);
  snprintf(p, sizeof p, "%s/deep", tmp);
  CHECK_INT(n_entries(p), 1); /* cal only: the temporary directory is gone */
  CHECK_INT(dcsim__dir_write_atomic(d, names, texts, 2, &err), DCSIM_EIO);
  CHECK_STR(err.msg, "exists and is not empty (nothing was written)");
  snprintf(d, sizeof d, "%s/deep/half", tmp);
  CHECK_INT(dcsim__dir_write_atomic(d, names, texts, 3, &err), DCSIM_EIO);
  CHECK(strstr(err.msg, "cannot write no-such/DRAM.csv") != NULL);
  CHECK_INT(n_entries(d), -1);
  CHECK_INT(n_entries(p), 1);   /* neither half nor half.tmpPID */
  CHECK_INT(mkdir(d, 0777), 0); /* an empty directory is taken */
  CHECK_INT(dcsim__dir_write_atomic(d, names, texts, 2, &err), 0);
  CHECK_INT(n_entries(d), 2);
  snprintf(d, sizeof d, "%s/deep/cal/flops.csv/x", tmp); /* a parent that is a file */
  CHECK_INT(dcsim__dir_write_atomic(d, names, texts, 2, &err), DCSIM_EIO);
  CHECK_STR(err.msg, "exists and is not a directory");
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  char tmp[] = "/tmp/dcsim-test-fileio-XXXXXX";
  if (!mkdtemp(tmp)) {
    perror("mkdtemp");
    return 1;
  }
  test_plain(tmp);
  test_rules(tmp);
  test_missing(tmp);
  test_large(tmp);
  test_pipe();
  test_not_regular(tmp);
  test_dir_atomic(tmp);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
  CHECK_DONE();
}
