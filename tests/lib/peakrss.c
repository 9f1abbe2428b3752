/* peakrss FILE COMMAND [ARGS...]: runs COMMAND and writes its peak resident
 * set size in kilobytes and its wall-clock seconds to FILE ("KB SECONDS"),
 * so that the limit tests can assert what --mem promises without needing
 * GNU time on the machine.  Exits with COMMAND's status (128 + signal when
 * a signal ended it). */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: peakrss FILE COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("peakrss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("peakrss: exec");
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0) {
        perror("peakrss: wait");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* RUSAGE_CHILDREN: the only child is COMMAND; ru_maxrss is in KB on Linux */
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fprintf(f, "%ld %.3f\n", ru.ru_maxrss,
            (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
