## R-side helpers of the sdc bridge (r_bridge). Written for this project.
## Every entry point returns list(value = , warnings = , messages = , error = ), so Python
## gets R's errors, warnings and printed messages as data instead of console noise.

capture <- function(expr) {
  warnings <- character(0)
  messages <- character(0)
  value <- tryCatch(
    withCallingHandlers(expr,
      warning = function(w) {
        warnings <<- c(warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      },
      message = function(m) {
        messages <<- c(messages, conditionMessage(m))
        invokeRestart("muffleMessage")
      }),
    error = function(e) structure(conditionMessage(e), class = "bridge_error"))
  if (inherits(value, "bridge_error")) {
    return(list(value = NULL, warnings = warnings, messages = messages, error = unclass(value)))
  }
  list(value = value, warnings = warnings, messages = messages, error = NULL)
}

## Text that an expression writes through message(), e.g. sdcMicro's print methods.
printed <- function(expr) {
  out <- character(0)
  withCallingHandlers(expr, message = function(m) {
    out <<- c(out, conditionMessage(m))
    invokeRestart("muffleMessage")
  })
  paste(out, collapse = "")
}

versions <- function() {
  list(R = R.version.string,
       sdcMicro = as.character(utils::packageVersion("sdcMicro")),
       data.table = as.character(utils::packageVersion("data.table")),
       robustbase = as.character(utils::packageVersion("robustbase")))
}

## Build a data.frame from converted columns without any coercion or renaming.
## numpy NaN arrives as R NaN; R's missing value is NA (data.table groups NaN apart from NA).
make_df <- function(cols, names, n) {
  for (i in seq_along(cols)) {
    if (is.double(cols[[i]])) cols[[i]][is.nan(cols[[i]])] <- NA_real_
  }
  structure(cols, names = names, row.names = c(NA_integer_, -as.integer(n)), class = "data.frame")
}

make_factor <- function(codes, levels, ordered) {
  structure(codes, levels = levels, class = if (ordered) c("ordered", "factor") else "factor")
}

## Describe a column for conversion to pandas: list(kind, values, levels).
column_parts <- function(x) {
  if (is.factor(x)) return(list(kind = "factor", values = as.integer(x), levels = levels(x), ordered = is.ordered(x)))
  if (is.logical(x)) return(list(kind = "logical", values = x))
  if (is.integer(x)) return(list(kind = "integer", values = x))
  if (is.double(x)) return(list(kind = "double", values = x))
  if (is.character(x)) return(list(kind = "character", values = x))
  list(kind = "other", values = as.character(x))
}

frame_parts <- function(df) {
  list(names = names(df), columns = lapply(df, column_parts), nrow = nrow(df))
}

load_dataset <- function(name) capture({
  e <- new.env()
  utils::data(list = name, package = "sdcMicro", envir = e)
  x <- get(name, envir = e)
  if (is.matrix(x)) x <- as.data.frame(x)
  frame_parts(as.data.frame(x))
})

freq_calc <- function(df, keys, w, alpha) capture({
  f <- sdcMicro::freqCalc(df, keyVars = keys, w = w, alpha = alpha)
  list(fk = as.numeric(f$fk), Fk = as.numeric(f$Fk), n1 = f$n1, n2 = f$n2, alpha = f$alpha)
})

indiv_risk <- function(df, keys, w, method, survey) capture({
  f <- sdcMicro::freqCalc(df, keyVars = keys, w = w)
  ir <- sdcMicro::indivRisk(f, method = method, survey = survey)
  list(rk = as.numeric(ir$rk), fk = as.numeric(f$fk), Fk = as.numeric(f$Fk))
})

measure_risk <- function(df, keys, w, hid, max_global_risk, fast_hier) capture({
  args <- list(df, keyVars = keys, max_global_risk = max_global_risk, fast_hier = fast_hier)
  if (!is.null(w)) args$w <- w
  if (!is.null(hid)) args$hid <- hid
  r <- do.call(sdcMicro::measure_risk, args)
  res <- r$Res
  list(risk = as.numeric(res[, "risk"]), fk = as.numeric(res[, "fk"]), Fk = as.numeric(res[, "Fk"]),
       record_hier_risk = if ("hier_risk" %in% colnames(res)) as.numeric(res[, "hier_risk"]) else NULL,
       global_risk_ER = r$global_risk_ER, global_risk = r$global_risk,
       global_risk_pct = r$global_risk_pct, global_threshold = as.numeric(r$global_threshold),
       max_global_risk = r$max_global_risk,
       hier_risk_ER = r$hier_risk_ER, hier_risk = r$hier_risk, hier_risk_pct = r$hier_risk_pct,
       print = printed(print(r)))
})

create_sdc_obj <- function(df, keys, w, hid, alpha) capture({
  args <- list(dat = df, keyVars = keys, alpha = alpha)
  if (!is.null(w)) args$weightVar <- w
  if (!is.null(hid)) args$hhId <- hid
  sdc <- do.call(sdcMicro::createSdcObj, args)
  g <- sdc@risk$global
  ind <- sdc@risk$individual
  pr <- sdcMicro::print(sdc, type = "risk", docat = FALSE)
  ka <- sdcMicro::print(sdc, type = "kAnon", docat = FALSE)
  list(global = lapply(g, as.numeric),
       risk = as.numeric(ind[, 1]), fk = as.numeric(ind[, 2]), Fk = as.numeric(ind[, 3]),
       record_hier_risk = if (ncol(ind) >= 4) as.numeric(ind[, 4]) else NULL,
       risky_obs = as.numeric(pr[[1]]$riskyObs$mod),
       reident = as.character(unlist(pr[[1]]$reident[c("mod", "mod_p")])),
       kanon = c(k2 = ka[["2anon"]]$orig, k3 = ka[["3anon"]]$orig, k5 = ka[["5anon"]]$orig),
       risk_text = printed(sdcMicro::print(sdc, type = "risk")),
       kanon_text = printed(sdcMicro::print(sdc, type = "kAnon")),
       obj = sdc)
})

ldiversity <- function(df, keys, sensitive, l_recurs_c, missing) capture({
  r <- sdcMicro::ldiversity(df, keyVars = keys, ldiv_index = sensitive, l_recurs_c = l_recurs_c, missing = missing)
  m <- unclass(r)
  list(names = colnames(m), values = lapply(seq_len(ncol(m)), function(j) as.numeric(m[, j])))
})

suda2 <- function(df, keys, missing, DisFraction, original_scores) capture({
  r <- sdcMicro::suda2(df, variables = keys, missing = missing, DisFraction = DisFraction,
                       original_scores = original_scores)
  cp <- as.matrix(r$contributionPercent)
  alc <- r$attribute_level_contributions
  list(contributions = lapply(seq_len(ncol(cp)), function(j) as.numeric(cp[, j])),
       score = as.numeric(r$score), dis = as.numeric(r$disScore),
       attr_variable = as.character(r$attribute_contributions$variable),
       attr_contribution = as.numeric(r$attribute_contributions$contribution),
       level_variable = as.character(alc$variable), level = as.character(alc$attribute),
       level_contribution = as.numeric(alc$contribution),
       print = printed(print(r)))
})

mod_risk <- function(df, method, weights, formula, bound) capture({
  r <- sdcMicro::modRisk(df, method = method, weights = weights, formulaM = stats::as.formula(formula), bound = bound)
  list(gr1 = r$gr1, gr2 = r$gr2, fitted = as.numeric(r$fitted), inclProb = as.numeric(r$inclProb),
       print = printed(print(r)))
})
