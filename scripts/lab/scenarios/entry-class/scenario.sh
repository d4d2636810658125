# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="job.entryClass names a class the jar does not have"
settled() { containers_restarted analytics component=jobmanager 2 flink-main-container; }
# Which class is the job's is for a person to say: doctor's fix must name the field.
PERSON_MUST_SET="spec.job.entryClass (the job's main class in the jar)"
