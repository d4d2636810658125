# shellcheck shell=bash
NAMESPACE=analytics
DESCRIPTION="spec.image names an image that cannot be pulled"
settled() { kubectl -n analytics get pods -l component=jobmanager -o jsonpath='{.items[*].status.containerStatuses[*].state.waiting.reason}' 2>/dev/null | grep -q ImagePullBackOff && sleep 10; }
# Which image is the job's is for a person to say: doctor's fix must name the field.
PERSON_MUST_SET="spec.image (an image that exists and the nodes may pull)"
