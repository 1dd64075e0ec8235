/*
 * A Kafka cluster for tests: librdkafka's mock cluster (real Kafka protocol over loopback, no JVM) with N brokers
 * and the topics named on argv. Usage:
 *
 *   mock-kafka <brokers> [topic:partitions:replication ...]
 *
 * Prints the bootstrap servers on one line, then serves until stdin is closed, so the cluster dies with the test
 * process that spawned it even if that process is killed (no orphaned listeners).
 * The mock cluster has no SASL, no TLS, and implements only part of the admin API (see mock-kafka.ts).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static int fail(const char *what, const char *detail) {
        fprintf(stderr, "mock-kafka: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
        return 2;
}

/* "name:partitions:replication" -> a topic on the cluster; the name may itself not contain ':'. */
static int create_topic(rd_kafka_mock_cluster_t *mcluster, char *spec, int brokers) {
        char *p1 = strchr(spec, ':');
        char *p2 = p1 ? strchr(p1 + 1, ':') : NULL;
        if (!p1 || !p2 || p1 == spec) return fail("topic must be name:partitions:replication", spec);
        *p1 = *p2 = '\0';
        int partitions = atoi(p1 + 1), replication = atoi(p2 + 1);
        if (partitions < 1 || replication < 1 || replication > brokers)
                return fail("bad partition or replication count for topic", spec);
        rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mcluster, spec, partitions, replication);
        if (err) return fail(rd_kafka_err2str(err), spec);
        return 0;
}

int main(int argc, char **argv) {
        if (argc < 2) return fail("usage: mock-kafka <brokers> [topic:partitions:replication ...]", NULL);
        int brokers = atoi(argv[1]);
        if (brokers < 1) return fail("broker count must be at least 1", argv[1]);

        /* The mock cluster hangs off a client handle; a producer is the cheapest one. It never connects anywhere. */
        char errstr[512];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        if (rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
                return fail(errstr, NULL);
        rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
        if (!rk) return fail("cannot create the client handle", errstr);

        rd_kafka_mock_cluster_t *mcluster = rd_kafka_mock_cluster_new(rk, brokers);
        if (!mcluster) {
                rd_kafka_destroy(rk);
                return fail("cannot create the mock cluster", NULL);
        }

        int rc = 0;
        for (int i = 2; i < argc && rc == 0; i++) rc = create_topic(mcluster, argv[i], brokers);

        if (rc == 0) {
                printf("%s\n", rd_kafka_mock_cluster_bootstraps(mcluster));
                fflush(stdout);
                /* Serve until stdin reaches EOF (or fails): that is the parent's "stop". */
                char buf[256];
                for (;;) {
                        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
                        if (n == 0) break;
                        if (n < 0 && errno != EINTR) break;
                }
        }

        rd_kafka_mock_cluster_destroy(mcluster);
        rd_kafka_destroy(rk);
        return rc;
}
