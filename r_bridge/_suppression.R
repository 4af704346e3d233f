## R-side helpers for local suppression and microaggregation (r_bridge/suppression.py).
## Written for this project. Evaluated in the bridge's helper environment, after _helpers.R,
## so capture() and frame_parts() are in scope. Every entry point returns
## list(value = , warnings = , messages = , error = ).

ls_result <- function(r, keys, x) {
  supps <- r$supps
  list(na = lapply(keys, function(v) as.integer(is.na(x[[v]]))),
       xanon = frame_parts(as.data.frame(x)[, keys, drop = FALSE]),
       supps = lapply(keys, function(v) as.numeric(supps[[v]])),
       supps_rows = as.character(rownames(supps)),
       total_supps = lapply(keys, function(v) as.numeric(r$totalSupps[[v]])),
       importance = as.numeric(r$importance),
       print = printed(print(r)))
}

local_suppression_df <- function(df, keys, k, importance, combs, strata, alpha) capture({
  args <- list(obj = df, keyVars = keys, k = k, alpha = alpha)
  if (!is.null(importance)) args$importance <- importance
  if (!is.null(combs)) args$combs <- combs
  if (!is.null(strata)) args$strataVars <- strata
  r <- do.call(sdcMicro::localSuppression, args)
  ls_result(r, keys, r$xAnon)
})

local_suppression_obj <- function(df, keys, k, importance, combs, strata, alpha, w) capture({
  args <- list(dat = df, keyVars = keys, alpha = alpha)
  if (!is.null(w)) args$weightVar <- w
  if (!is.null(strata)) args$strataVar <- strata
  sdc <- do.call(sdcMicro::createSdcObj, args)
  largs <- list(obj = sdc, k = k)
  if (!is.null(importance)) largs$importance <- importance
  if (!is.null(combs)) largs$combs <- combs
  sdc <- do.call(sdcMicro::localSuppression, largs)
  x <- sdcMicro::get.sdcMicroObj(sdc, type = "manipKeyVars")
  ls <- sdcMicro::get.sdcMicroObj(sdc, type = "localSuppression")
  list(na = lapply(keys, function(v) as.integer(is.na(x[[v]]))),
       xanon = frame_parts(as.data.frame(x)[, keys, drop = FALSE]),
       supps = lapply(keys, function(v) as.numeric(ls$supps[[v]])),
       supps_rows = as.character(rownames(ls$supps)),
       total_supps = lapply(keys, function(v) as.numeric(ls$totalSupps[[v]])),
       importance = as.numeric(ls$importance),
       print = "")
})

microaggregation_df <- function(df, variables, aggr, method, strata) capture({
  args <- list(obj = df, variables = variables, aggr = aggr, method = method)
  if (!is.null(strata)) args$strata_variables <- strata
  r <- do.call(sdcMicro::microaggregation, args)
  list(mx = lapply(variables, function(v) as.numeric(r$mx[[v]])), method = as.character(r$method))
})

## Timing on the R side (the conversion to R is not timed): one untimed call, then `reps`.
time_local_suppression <- function(df, keys, k, alpha, reps) capture({
  f <- function() sdcMicro::localSuppression(df, keyVars = keys, k = k, alpha = alpha)
  r <- f()
  secs <- numeric(reps)
  for (i in seq_len(reps)) secs[i] <- system.time(r <- f())[["elapsed"]]
  list(seconds = secs, na = lapply(keys, function(v) as.integer(is.na(r$xAnon[[v]]))))
})

time_microaggregation <- function(df, variables, aggr, method, reps) capture({
  f <- function() sdcMicro::microaggregation(df, variables = variables, aggr = aggr, method = method)
  r <- f()
  secs <- numeric(reps)
  for (i in seq_len(reps)) secs[i] <- system.time(r <- f())[["elapsed"]]
  list(seconds = secs, mx = lapply(variables, function(v) as.numeric(r$mx[[v]])))
})

local_supp_obj <- function(df, keys, key_var, threshold, alpha, w) capture({
  args <- list(dat = df, keyVars = keys, alpha = alpha)
  if (!is.null(w)) args$weightVar <- w
  sdc <- do.call(sdcMicro::createSdcObj, args)
  sdc <- sdcMicro::localSupp(sdc, threshold = threshold, keyVar = key_var)
  x <- sdcMicro::get.sdcMicroObj(sdc, type = "manipKeyVars")
  list(na = as.integer(is.na(x[[key_var]])))
})

risky_cells_df <- function(df, keys, threshold, max_dim, level) capture({
  args <- list(obj = df, keyVars = keys, threshold = threshold)
  if (is.null(level)) {
    args$useIdentificationLevel <- FALSE
    args$maxDim <- max_dim
  } else {
    args$useIdentificationLevel <- TRUE
    args$level <- level
  }
  r <- as.data.frame(do.call(sdcMicro::riskyCells, args))
  list(unsafe = as.integer(r$unsafe_cells), threshold = as.integer(r$threshold),
       dims = lapply(grep("^dim", names(r), value = TRUE), function(v) as.character(r[[v]])))
})
