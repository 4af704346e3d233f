## Time sdcMicro::measure_risk on columns written by validation/benchmark.py (written for this project).
## Usage: Rscript bench_measure_risk.R DIR N K WEIGHTED
## Prints: elapsed seconds, global_risk_ER, global_threshold, R peak memory (MB, gc "max used").
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; n <- as.integer(args[2]); k <- as.integer(args[3]); weighted <- args[4] == "1"
suppressMessages(requireNamespace("sdcMicro"))
cols <- lapply(seq_len(k), function(j) readBin(file.path(dir, sprintf("k%d.bin", j)), "integer", n = n, size = 4))
names(cols) <- sprintf("k%d", seq_len(k))
df <- as.data.frame(cols)
if (weighted) df$w <- readBin(file.path(dir, "w.bin"), "double", n = n)
invisible(gc(reset = TRUE))
elapsed <- system.time(
  r <- if (weighted) sdcMicro::measure_risk(df, keyVars = names(cols), w = "w")
       else sdcMicro::measure_risk(df, keyVars = names(cols))
)[["elapsed"]]
mem <- sum(gc()[, 6])
cat(sprintf("%.6f %.17g %.17g %.1f\n", elapsed, r$global_risk_ER, as.numeric(r$global_threshold), mem))
