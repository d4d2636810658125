# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="hdfs:// checkpoints without Hadoop in the image"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }
PERSON_MUST_SET="the hdfs:// file system: Hadoop in the image (HADOOP_CLASSPATH) and the namenode, or flinkConfiguration state.checkpoints.dir on a file system the cluster has"
