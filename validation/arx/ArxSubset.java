import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.deidentifier.arx.*;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.criteria.DPresence;
import org.deidentifier.arx.criteria.KMap;
import org.deidentifier.arx.metric.Metric;

// ARX's optimum for delta-presence and k-map with a research subset (sdc's tests/identify/test_presence.py).
// The population is adult (DIR), the subset the 0-based rows of ROWS_FILE; the eight quasi-identifiers of
// ARX's TestAnonymizationDPresence (occupation insensitive). Not part of sdc; see README.md.
//   java ArxSubset ROWS_FILE dpresence DMIN DMAX LIMIT METRIC   |   java ArxSubset ROWS_FILE kmap K LIMIT METRIC
// Prints: transformation TAB highest score TAB lowest score.
public class ArxSubset {
    static final String DIR = System.getenv("SDC_ARX_ADULT") != null
        ? Paths.get(System.getenv("SDC_ARX_ADULT")).toAbsolutePath().getParent() + "/" : "/work/shared/data/arx-adult/";
    static final String[] COLS = {"sex","age","race","marital-status","education","native-country","workclass","salary-class"};

    static Metric<?> metric(String name) {
        switch (name) {
            case "nue": return Metric.createEntropyMetric();
            case "nue_monotonic": return Metric.createEntropyMetric(true);
            case "loss": return Metric.createLossMetric();
            case "discernibility": return Metric.createDiscernabilityMetric();
            case "avg_class_size": return Metric.createAECSMetric();
            case "height": return Metric.createHeightMetric();
        }
        throw new IllegalArgumentException(name);
    }

    public static void main(String[] args) throws Exception {
        Data data = Data.create(DIR + "adult.csv", StandardCharsets.UTF_8, ';');
        data.getDefinition().setAttributeType("occupation", AttributeType.INSENSITIVE_ATTRIBUTE);
        for (String c : COLS)
            data.getDefinition().setAttributeType(c, Hierarchy.create(DIR + "adult_hierarchy_" + c + ".csv", StandardCharsets.UTF_8, ';'));
        List<Integer> rows = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8))
            if (!line.trim().isEmpty()) rows.add(Integer.parseInt(line.trim()));
        Set<Integer> set = new HashSet<>(rows);
        DataSubset subset = DataSubset.create(data, set);
        ARXConfiguration config = ARXConfiguration.create();
        int i;
        if (args[1].equals("dpresence")) {
            config.addPrivacyModel(new DPresence(Double.parseDouble(args[2]), Double.parseDouble(args[3]), subset));
            i = 4;
        } else {
            config.addPrivacyModel(new KMap(Integer.parseInt(args[2]), subset));
            i = 3;
        }
        config.setSuppressionLimit(Double.parseDouble(args[i]));
        config.setQualityModel(metric(args[i + 1]));
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        ARXLattice.ARXNode opt = result.getGlobalOptimum();
        if (opt == null) { System.out.println("none"); return; }
        System.out.println(Arrays.toString(opt.getTransformation()) + "\t" + opt.getHighestScore().toString() + "\t" + opt.getLowestScore().toString());
    }
}
