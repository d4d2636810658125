# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="job.jarURI names a jar that is not in the image"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }
