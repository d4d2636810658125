# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="S3 checkpoints without an S3 file system plugin"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }
# The S3 plugin must be in the image (or enabled from /opt/flink/opt, which the lab's image does not
# ship) and the bucket reachable with credentials: a person's decision, and no S3 in the lab.
PERSON_MUST_SET="the s3:// file system: a plugin in the image (ENABLE_BUILT_IN_PLUGINS on flink-main-container in spec.podTemplate) and the bucket's endpoint and credentials, or flinkConfiguration state.checkpoints.dir on a file system the cluster has"
