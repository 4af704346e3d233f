## Time sdcMicro's suda2, measure_risk(hid) or modRisk on columns written by validation/benchmark.py
## (written for this project). Usage: Rscript bench_toolbox.R DIR N K WHAT
## WHAT: suda2 | household | modrisk. Prints: elapsed seconds, a checksum, R peak memory (MB).
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; n <- as.integer(args[2]); k <- as.integer(args[3]); what <- args[4]
suppressMessages(requireNamespace("sdcMicro"))
cols <- lapply(seq_len(k), function(j) readBin(file.path(dir, sprintf("k%d.bin", j)), "integer", n = n, size = 4))
names(cols) <- sprintf("k%d", seq_len(k))
df <- as.data.frame(cols)
if (file.exists(file.path(dir, "w.bin"))) df$w <- readBin(file.path(dir, "w.bin"), "double", n = n)
if (file.exists(file.path(dir, "hh.bin"))) df$hh <- readBin(file.path(dir, "hh.bin"), "integer", n = n, size = 4)
keys <- names(cols)
invisible(gc(reset = TRUE))
if (what == "suda2") {
  elapsed <- system.time(r <- sdcMicro::suda2(df, variables = keys))[["elapsed"]]
  check <- sum(r$score)
} else if (what == "household") {
  elapsed <- system.time(r <- sdcMicro::measure_risk(df, keyVars = keys, w = "w", hid = "hh"))[["elapsed"]]
  check <- r$hier_risk_ER
} else {
  f <- stats::as.formula(paste("~", paste(keys, collapse = " + ")))
  elapsed <- system.time(r <- sdcMicro::modRisk(df, method = "default", weights = "w", formulaM = f))[["elapsed"]]
  check <- r$gr1
}
mem <- sum(gc()[, 6])
cat(sprintf("%.6f %.17g %.1f\n", elapsed, check, mem))
