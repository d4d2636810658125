# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="S3 checkpoints without an S3 file system plugin"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }
