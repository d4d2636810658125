# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="FlinkSessionJob whose jarURI the operator cannot fetch, on a running session cluster"
SETTLE_TIMEOUT=240
settled() { resource_has analytics flinksessionjob/orders '{.status.error}' && sleep 10; }
# Where the jar is served is for a person to say: doctor's fix must name the field.
PERSON_MUST_SET="spec.job.jarURI of the FlinkSessionJob (a URL the operator's pod can fetch)"
