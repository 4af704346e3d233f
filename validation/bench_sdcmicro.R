## Timing of sdcMicro functions for validation/benchmark.py, warm and cold (written for this project).
## Usage: Rscript bench_sdcmicro.R WHAT DIR N K REPEAT
## WHAT: measure_risk | ldiversity | suda2 | household | modrisk.
## DIR holds the columns written by benchmark.py (little-endian binary): k1.bin .. kK.bin (int32,
## NA as NA_integer_), and when present w.bin (double), s.bin and hh.bin (int32).
## The function is called once untimed-for-the-warm-figures ("cold": the first call in a fresh
## session, timed on its own), then REPEAT times; every call prints one line
##   <cold|warm> <elapsed s> <cpu s (user + system of this R process)>
## and a last line "check <checksum> <peak MB>" (gc "max used").
args <- commandArgs(trailingOnly = TRUE)
what <- args[1]; dir <- args[2]; n <- as.integer(args[3]); k <- as.integer(args[4]); reps <- as.integer(args[5])
suppressMessages(requireNamespace("sdcMicro"))
rd <- function(name, type) readBin(file.path(dir, name), type, n = n, size = if (type == "double") 8 else 4,
                                   endian = "little")
cols <- lapply(seq_len(k), function(j) rd(sprintf("k%d.bin", j), "integer"))
names(cols) <- sprintf("k%d", seq_len(k))
df <- as.data.frame(cols)
keys <- names(cols)
if (file.exists(file.path(dir, "w.bin"))) df$w <- rd("w.bin", "double")
if (file.exists(file.path(dir, "s.bin"))) df$s <- rd("s.bin", "integer")
if (file.exists(file.path(dir, "hh.bin"))) df$hh <- rd("hh.bin", "integer")
weighted <- "w" %in% names(df)

call <- switch(what,
  measure_risk = function() {
    r <- if (weighted) sdcMicro::measure_risk(df, keyVars = keys, w = "w") else sdcMicro::measure_risk(df, keyVars = keys)
    r$global_risk_ER
  },
  ldiversity = function() sum(unclass(sdcMicro::ldiversity(df, keyVars = keys, ldiv_index = "s"))[, 1]),
  suda2 = function() sum(sdcMicro::suda2(df, variables = keys)$score),
  household = function() sdcMicro::measure_risk(df, keyVars = keys, w = "w", hid = "hh")$hier_risk_ER,
  modrisk = function() {
    f <- stats::as.formula(paste("~", paste(keys, collapse = " + ")))
    sdcMicro::modRisk(df, method = "default", weights = "w", formulaM = f)$gr1
  },
  stop("unknown WHAT: ", what))

timed <- function(label) {
  invisible(gc())
  t <- system.time(value <- call())
  cat(label, t[["elapsed"]], t[["user.self"]] + t[["sys.self"]], "\n")
  flush(stdout())
  value
}
invisible(gc(reset = TRUE))
check <- timed("cold")
for (i in seq_len(reps)) check <- timed("warm")
cat("check", sprintf("%.17g", as.numeric(check)), sum(gc()[, 6]), "\n")
