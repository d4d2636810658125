package lab;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The reality lab's user job: an endless, slow stream of numbers that a filter drops before the
 * print sink, so a healthy deployment stays RUNNING without any external system and with a quiet
 * log; only APIs that Flink 1.x and 2.x both have. Checkpointing and everything else
 * come from the deployment's Flink configuration, as they would for a real job.
 */
public final class LabJob {
    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(0, Long.MAX_VALUE)
                .map(new Slow())
                .filter(value -> false)
                .print();
        env.execute("kubectl-flink lab job");
    }

    /** One record every 100 ms: the lab shares two cores with a control plane. */
    static final class Slow implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            Thread.sleep(100);
            return value;
        }
    }
}
