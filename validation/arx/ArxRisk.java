/*
 * Prints ARX's re-identification risk figures for a CSV file, as one JSON object, so that
 * tests/risk/test_arx_live.py can compare sdc with ARX itself. Our own code: it only calls ARX's
 * public API (org.deidentifier.arx.*); see validation/arx/README.md for how to build ARX.
 *
 * Usage:
 *   java -cp ARX_CLASSPATH:BUILD_DIR ArxRisk FILE QI1,QI2,... [threshold=0.2] [fractions=0.1,1]
 *        [subset=ROWS_FILE] [sep=;]
 *
 * FILE is read by ARX as strings (first line the header). With subset=ROWS_FILE (0-based row
 * numbers, one a line) the file is the population and the rows are the sample: the risks are
 * computed on ARX's research-subset view, whose superset gives the population class sizes
 * (journalist and marketer risk). Population uniqueness is computed on the sample for each
 * sampling fraction (ARXPopulationModel.create(n, fraction): N = round(n / fraction)).
 */

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXPopulationModel;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.DataHandle;
import org.deidentifier.arx.DataSubset;
import org.deidentifier.arx.criteria.Inclusion;
import org.deidentifier.arx.risk.RiskEstimateBuilder;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;
import org.deidentifier.arx.risk.RiskModelSampleSummary;

public class ArxRisk {

    /** JSON number: null for NaN/infinite (JSON has neither). */
    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : Double.toString(v);
    }

    private static String summary(RiskModelSampleSummary.RiskSummary r) {
        return String.format(Locale.ROOT,
                "{\"records_at_risk\": %s, \"highest_risk\": %s, \"lowest_risk\": %s, \"success_rate\": %s}",
                num(r.getRecordsAtRisk()), num(r.getHighestRisk()), num(r.getLowestRisk()), num(r.getSuccessRate()));
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ArxRisk FILE QI1,QI2,... [threshold=T] [fractions=F1,F2] [subset=ROWS] [sep=C]");
            System.exit(2);
        }
        String file = args[0];
        Set<String> qis = new LinkedHashSet<String>();
        for (String q : args[1].split(",")) qis.add(q);
        double threshold = 0.2;
        List<Double> fractions = new ArrayList<Double>();
        String subsetFile = null;
        char sep = ';';
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            if (kv[0].equals("threshold")) threshold = Double.parseDouble(kv[1]);
            else if (kv[0].equals("fractions")) for (String f : kv[1].split(",")) fractions.add(Double.parseDouble(f));
            else if (kv[0].equals("subset")) subsetFile = kv[1];
            else if (kv[0].equals("sep")) sep = kv[1].charAt(0);
            else { System.err.println("unknown argument: " + args[i]); System.exit(2); }
        }

        Data data = Data.create(file, StandardCharsets.UTF_8, sep);
        for (String q : qis) data.getDefinition().setAttributeType(q, AttributeType.QUASI_IDENTIFYING_ATTRIBUTE);
        DataHandle handle = data.getHandle();
        if (subsetFile != null) {
            Set<Integer> rows = new HashSet<Integer>();
            for (String line : Files.readAllLines(Paths.get(subsetFile), StandardCharsets.UTF_8)) {
                if (!line.trim().isEmpty()) rows.add(Integer.parseInt(line.trim()));
            }
            // ARX attaches a research subset to the input handle when it anonymises with a
            // subset model (Inclusion); the view is the sample, its superset the population.
            // Missing hierarchies are materialised by ARX; the transformation found is unused.
            ARXConfiguration config = ARXConfiguration.create();
            config.addPrivacyModel(new Inclusion(DataSubset.create(data, rows)));
            config.setSuppressionLimit(0d);
            new ARXAnonymizer().anonymize(data, config);
            handle = data.getHandle().getView();
        }
        int n = handle.getNumRows();

        StringBuilder out = new StringBuilder();
        out.append("{\"n\": ").append(n);

        // The attacker models do not use the population model; any will do
        RiskEstimateBuilder builder = handle.getRiskEstimator(ARXPopulationModel.create(n, 1d), qis);
        RiskModelSampleSummary s = builder.getSampleBasedRiskSummary(threshold);
        out.append(", \"threshold\": ").append(num(threshold));
        out.append(", \"prosecutor\": ").append(summary(s.getProsecutorRisk()));
        out.append(", \"journalist\": ").append(summary(s.getJournalistRisk()));
        out.append(", \"marketer\": ").append(num(s.getMarketerRisk().getSuccessRate()));

        out.append(", \"uniqueness\": [");
        for (int i = 0; i < fractions.size(); i++) {
            double f = fractions.get(i);
            ARXPopulationModel model = ARXPopulationModel.create(n, f);
            RiskModelPopulationUniqueness u = handle.getRiskEstimator(model, qis).getPopulationBasedUniquenessRisk();
            if (i > 0) out.append(", ");
            out.append(String.format(Locale.ROOT,
                    "{\"fraction\": %s, \"population_size\": %d, "
                    + "\"zayatz\": %s, \"pitman\": %s, \"snb\": %s, \"dankar\": %s, "
                    + "\"zayatz_available\": %b, \"pitman_available\": %b, \"snb_available\": %b, \"model\": \"%s\"}",
                    num(f), model.getPopulationSize(),
                    num(u.getNumUniqueTuplesZayatz()), num(u.getNumUniqueTuplesPitman()),
                    num(u.getNumUniqueTuplesSNB()), num(u.getNumUniqueTuplesDankar()),
                    u.isAvailableEstimate(PopulationUniquenessModel.ZAYATZ),
                    u.isAvailableEstimate(PopulationUniquenessModel.PITMAN),
                    u.isAvailableEstimate(PopulationUniquenessModel.SNB),
                    u.getPopulationUniquenessModel()));
        }
        out.append("]}");
        System.out.println(out);
    }
}
