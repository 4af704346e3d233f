## Time sdcMicro::ldiversity on columns written by validation/benchmark.py (written for this project).
## Usage: Rscript bench_ldiversity.R DIR N K
## Prints: elapsed seconds, sum of the distinct l-diversity column, R peak memory (MB).
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; n <- as.integer(args[2]); k <- as.integer(args[3])
suppressMessages(requireNamespace("sdcMicro"))
cols <- lapply(seq_len(k), function(j) readBin(file.path(dir, sprintf("k%d.bin", j)), "integer", n = n, size = 4))
names(cols) <- sprintf("k%d", seq_len(k))
df <- as.data.frame(cols)
df$s <- readBin(file.path(dir, "s.bin"), "integer", n = n, size = 4)
invisible(gc(reset = TRUE))
elapsed <- system.time(r <- sdcMicro::ldiversity(df, keyVars = names(cols), ldiv_index = "s"))[["elapsed"]]
mem <- sum(gc()[, 6])
cat(sprintf("%.6f %.17g %.1f\n", elapsed, sum(unclass(r)[, 1]), mem))
