import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.deidentifier.arx.*;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.metric.Metric;

// Reference values from ARX for sdc's tests: the weighted optima of tests/identify/test_metrics_weights.py
// the SSE/SST of tests/utility/test_sse_sst.py and the classification metric of
// tests/identify/test_metric_classification.py. Not part of sdc; see README.md.
public class ArxQuality {
    static final String DIR = "/work/shared/data/arx-adult/";
    static final String[] COLS = {"sex","age","race","marital-status","education","native-country","workclass","occupation","salary-class"};

    static Data load(boolean numericAge, boolean withOcc) throws IOException {
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        for (String c : COLS) {
            if (!withOcc && c.equals("occupation")) { data.getDefinition().setAttributeType(c, AttributeType.INSENSITIVE_ATTRIBUTE); continue; }
            data.getDefinition().setAttributeType(c, Hierarchy.create(DIR + "adult_hierarchy_" + c + ".csv", StandardCharsets.UTF_8, ';'));
        }
        if (numericAge) data.getDefinition().setDataType("age", DataType.INTEGER);
        return data;
    }

    static Metric<?> metric(String name) {
        switch (name) {
            case "nue": return Metric.createEntropyMetric();
            case "nue_monotonic": return Metric.createEntropyMetric(true);
            case "loss": return Metric.createLossMetric();
            case "precision": return Metric.createPrecisionMetric(false);
            case "precision_monotonic": return Metric.createPrecisionMetric(true);
            case "height": return Metric.createHeightMetric();
            case "nue_normalised": return Metric.createNormalizedEntropyMetric();
        }
        throw new IllegalArgumentException(name);
    }

    static final String[] CLS_QIS = {"sex","age","race","marital-status","education","native-country","workclass"};

    // adult with the seven quasi-identifiers CLS_QIS, occupation and salary-class insensitive, the
    // response variables `responses` (comma-separated); `levels` (one per CLS_QIS, or null) fixes the
    // lattice to that one transformation (minimum = maximum generalisation).
    static Data classificationData(String responses, int[] levels) throws IOException {
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        for (int i = 0; i < CLS_QIS.length; i++) {
            String c = CLS_QIS[i];
            data.getDefinition().setAttributeType(c, Hierarchy.create(DIR + "adult_hierarchy_" + c + ".csv", StandardCharsets.UTF_8, ';'));
            if (levels != null) {
                data.getDefinition().setMinimumGeneralization(c, levels[i]);
                data.getDefinition().setMaximumGeneralization(c, levels[i]);
            }
        }
        data.getDefinition().setAttributeType("occupation", AttributeType.INSENSITIVE_ATTRIBUTE);
        data.getDefinition().setAttributeType("salary-class", AttributeType.INSENSITIVE_ATTRIBUTE);
        for (String r : responses.split(",")) data.getDefinition().setResponseVariable(r, true);
        return data;
    }

    static ARXResult classify(Data data, int k, double limit, double gs) throws IOException {
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(new KAnonymity(k));
        config.setSuppressionLimit(limit);
        config.setQualityModel(Metric.createClassificationMetric(gs));
        return new ARXAnonymizer().anonymize(data, config);
    }

    static int suppressed(ARXResult result) {
        DataHandle out = result.getOutput(false);
        int s = 0;
        for (int r = 0; r < out.getNumRows(); r++) if (out.isOutlier(r)) s++;
        return s;
    }

    static void write(DataHandle out, String path) throws IOException {
        try (PrintWriter w = new PrintWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8))) {
            w.println(String.join(";", COLS));
            for (int r = 0; r < out.getNumRows(); r++) {
                String[] row = new String[out.getNumColumns()];
                for (int c = 0; c < row.length; c++) row[c] = out.getValue(r, c);
                w.println(String.join(";", row));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("classification")) {  // K GS RESPONSES LEVELS...: ARX's loss of each transformation (limit 100 %)
            int k = Integer.parseInt(args[1]);
            double gs = Double.parseDouble(args[2]);
            for (int a = 4; a < args.length; a++) {
                String[] parts = args[a].split(",");
                int[] levels = new int[parts.length];
                for (int i = 0; i < parts.length; i++) levels[i] = Integer.parseInt(parts[i]);
                ARXResult result = classify(classificationData(args[3], levels), k, 1.0, gs);
                ARXLattice.ARXNode opt = result.getGlobalOptimum();
                System.out.println("classification\t" + Arrays.toString(opt.getTransformation()) + "\t" + suppressed(result) + "\t" + opt.getHighestScore().toString());
            }
            return;
        }
        if (mode.equals("classification-search")) {  // K LIMIT RESPONSES: ARX's optimum
            ARXResult result = classify(classificationData(args[3], null), Integer.parseInt(args[1]), Double.parseDouble(args[2]), 0.5);
            ARXLattice.ARXNode opt = result.getGlobalOptimum();
            System.out.println("optimum\t" + Arrays.toString(opt.getTransformation()) + "\t" + suppressed(result) + "\t" + opt.getHighestScore().toString());
            return;
        }
        if (mode.equals("weights")) {
            for (String m : new String[]{"nue", "nue_monotonic", "loss", "precision", "precision_monotonic", "height", "nue_normalised"}) {
                for (double limit : new double[]{0.0, 0.04}) {
                    Data data = load(false, false);
                    ARXConfiguration config = ARXConfiguration.create();
                    config.addPrivacyModel(new KAnonymity(5));
                    config.setSuppressionLimit(limit);
                    config.setQualityModel(metric(m));
                    for (int i = 0; i < COLS.length; i++) config.setAttributeWeight(COLS[i], i + 1);
                    ARXResult result = new ARXAnonymizer().anonymize(data, config);
                    ARXLattice.ARXNode opt = result.getGlobalOptimum();
                    System.out.println(m + "\t" + limit + "\t" + Arrays.toString(opt.getTransformation()) + "\t" + opt.getHighestScore().toString() + "\t" + opt.getLowestScore().toString());
                }
            }
        } else if (mode.equals("local")) {  // local: k, limit, fast|iterative, records|maxIterations, out.csv
            int k = Integer.parseInt(args[1]);
            double limit = Double.parseDouble(args[2]);
            Data data = load(false, true);
            ARXConfiguration config = ARXConfiguration.create();
            config.addPrivacyModel(new KAnonymity(k));
            config.setSuppressionLimit(limit);
            config.setQualityModel(Metric.createLossMetric());
            ARXResult result = new ARXAnonymizer().anonymize(data, config);
            DataHandle out = result.getOutput(false);
            ARXProcessStatistics stats = args[3].equals("fast")
                ? result.optimizeIterativeFast(out, Double.parseDouble(args[4]))
                : result.optimizeIterative(out, 0.5d, Integer.parseInt(args[4]), 0d);
            write(out, args[5]);
            System.out.println("local\t" + Arrays.toString(result.getGlobalOptimum().getTransformation()) + "\t" + stats.getNumberOfSteps());
            for (int i = 0; i < stats.getNumberOfSteps(); i++) {
                ARXProcessStatistics.Step st = stats.getStep(i);
                System.out.println("step\t" + Arrays.toString(st.getTransformation()) + "\t" + st.getNumberOfRecordsTransformed() + "\t" + st.getScore());
            }
        } else {  // sse: k, limit, numericAge, out.csv
            int k = Integer.parseInt(args[1]);
            double limit = Double.parseDouble(args[2]);
            boolean numericAge = Boolean.parseBoolean(args[3]);
            Data data = load(numericAge, true);
            ARXConfiguration config = ARXConfiguration.create();
            config.addPrivacyModel(new KAnonymity(k));
            config.setSuppressionLimit(limit);
            config.setQualityModel(Metric.createLossMetric());
            ARXResult result = new ARXAnonymizer().anonymize(data, config);
            DataHandle out = result.getOutput(false);
            double v = out.getStatistics().getQualityStatistics().getSSESST().getValue();
            write(out, args[4]);
            System.out.println("sse\t" + k + "\t" + limit + "\t" + numericAge + "\t" + Arrays.toString(result.getGlobalOptimum().getTransformation()) + "\t" + Double.toString(v));
        }
    }
}
