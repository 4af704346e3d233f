## Timing of sdcMicro's protection methods for validation/bench_protect.py (written for this project).
## Usage: Rscript bench_protect.R DIR N REPEAT
## DIR holds age.f64, income.f64, roof.i32 (binary, little-endian) and id.txt (one id per line).
## Every method is called once untimed (warm), then REPEAT times under system.time; one line per
## method: "<name> <seconds> <seconds> ..." on stdout, CPU seconds (user + system) of this R
## process, as the Python side measures its own (the machine is shared: elapsed time would count
## other processes' load).
suppressMessages(library(sdcMicro))
args <- commandArgs(TRUE)
dir <- args[1]
n <- as.integer(args[2])
repeats <- as.integer(args[3])
only <- if (length(args) >= 4) strsplit(args[4], ",")[[1]] else c("recode", "recode_obj", "topcode", "topcode_obj", "pram", "newid", "hmac")
rd <- function(name, what, size) readBin(file.path(dir, name), what = what, n = n, size = size, endian = "little")
age <- rd("age.f64", "double", 8)
income <- rd("income.f64", "double", 8)
roof <- factor(rd("roof.i32", "integer", 4))
id <- readLines(file.path(dir, "id.txt"))
key <- charToRaw("benchmark-key-0123456789abcdef")

time_it <- function(name, f) {
  if (!(name %in% only)) return(invisible())
  f()
  t <- vapply(seq_len(repeats), function(i) sum(system.time(f())[c("user.self", "sys.self")]), numeric(1))
  cat(name, t, "\n")
}

time_it("recode", function() globalRecode(age, breaks = c(-1, 9, 19, 29, 39, 49, 59, 69, 79, 89, 100)))
if ("recode_obj" %in% only) {
  # The sdcMicroObj method, as a sdcMicro workflow calls it: it re-measures the risk after recoding.
  obj <- createSdcObj(data.frame(age = age, roof = roof), keyVars = c("age", "roof"))
  time_it("recode_obj", function() globalRecode(obj, column = "age", breaks = c(-1, 9, 19, 29, 39, 49, 59, 69, 79, 89, 100)))
  rm(obj)
}
time_it("topcode", function() topBotCoding(income, value = 2e5, replacement = 2e5, kind = "top"))
if ("topcode_obj" %in% only) {
  # The sdcMicroObj method: it re-measures risk and utility (dRisk, dUtility) after coding.
  obj <- suppressWarnings(createSdcObj(data.frame(age = age, roof = roof, income = income),
                                       keyVars = c("age", "roof"), numVars = "income"))
  time_it("topcode_obj", function() suppressWarnings(topBotCoding(obj, value = 2e5, replacement = 2e5,
                                                                  kind = "top", column = "income")))
  rm(obj)
}
time_it("pram", function() { set.seed(1); pram(roof, pd = 0.8, alpha = 0.5) })
if ("newid" %in% only) {
  # sdcMicro's only identifier method: new random ids, equal within an old id (createNewID).
  sdc <- createSdcObj(data.frame(id = id, roof = roof), keyVars = "roof")
  time_it("newid", function() createNewID(sdc, newID = "pid", withinVar = "id"))
}
time_it("hmac", function() openssl::sha256(id, key = key))
