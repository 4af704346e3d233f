package org.apache.hadoop.io;
// Compile-time stub: hadoop-core jar is absent from the ARX snapshot; mahout's classifiers reference it.
public interface Writable {
    void write(java.io.DataOutput out) throws java.io.IOException;
    void readFields(java.io.DataInput in) throws java.io.IOException;
}
