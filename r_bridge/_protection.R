## R-side helpers for the protection methods (r_bridge/protection.py): globalRecode,
## groupAndRename, topBotCoding, pram, addNoise, rankSwap, and HMAC-SHA-256 from R's openssl
## package (an independent implementation to check pseudonyms against). Written for this
## project. Evaluated in the bridge's helper environment after _helpers.R, so capture() is in
## scope. Every entry point returns list(value = , warnings = , messages = , error = ).

factor_parts <- function(f) list(codes = as.integer(f), levels = as.character(levels(f)))

protect_global_recode <- function(x, breaks, labels, method) capture({
  args <- list(as.numeric(x), breaks = as.numeric(breaks), method = method)
  if (!is.null(labels)) args$labels <- labels
  factor_parts(do.call(sdcMicro::globalRecode, args))
})

protect_top_bot_coding <- function(x, value, replacement, kind) capture({
  as.numeric(sdcMicro::topBotCoding(as.numeric(x), value = value, replacement = replacement, kind = kind))
})

protect_group_and_rename <- function(f, before, after, add_na) capture({
  if (!is.factor(f)) f <- factor(f)
  factor_parts(sdcMicro::groupAndRename(f, var = NULL, before = before, after = after, addNA = add_na))
})

as_factors <- function(df, variables) {
  for (v in variables) if (!is.factor(df[[v]])) df[[v]] <- factor(df[[v]])
  df
}

protect_pram <- function(df, variables, strata, pd, alpha, seed) capture({
  df <- as_factors(df, variables)
  set.seed(seed)
  res <- sdcMicro::pram(df, variables = variables, strata_variables = strata, pd = pd, alpha = alpha)
  params <- attr(res, "pram_params")
  list(pramed = lapply(variables, function(v) factor_parts(res[[paste0(v, "_pram")]])),
       Rs = lapply(variables, function(v) unclass(params[[v]]$Rs)),
       levels = lapply(variables, function(v) levels(df[[v]])),
       nrChanges = as.numeric(attr(res, "summary")$nrChanges))
})

## The diagonal sdcMicro draws for one unstratified variable: runif(L, pd, 1) is the first
## use of the random stream inside pram(), so the same seed replays it.
protect_pram_draws <- function(x, pd, alpha, seed) capture({
  f <- if (is.factor(x)) x else factor(x)
  set.seed(seed)
  d <- stats::runif(nlevels(f), min = pd, max = 1)
  set.seed(seed)
  res <- sdcMicro::pram(f, pd = pd, alpha = alpha)
  list(diagonal = d, Rs = unclass(attr(res, "pram_params")$x$Rs), levels = levels(f),
       pramed = factor_parts(res$x_pram))
})

protect_pram_matrix <- function(x, mat, lev, seed) capture({
  f <- factor(as.character(x), levels = lev)
  rownames(mat) <- colnames(mat) <- lev
  set.seed(seed)
  res <- sdcMicro::pram(f, pd = mat)
  factor_parts(res$x_pram)
})

## addNoise, and the standard normal draws behind it: additive and correlated2 draw
## rnorm(N, m, s) = m + s * norm_rand() column by column, so the same seed replays z.
protect_add_noise <- function(df, variables, noise, method, delta, seed) capture({
  set.seed(seed)
  r <- sdcMicro::addNoise(df, variables = variables, noise = noise, method = method, delta = delta)
  set.seed(seed)
  z <- stats::rnorm(nrow(df) * length(variables))
  xm <- as.matrix(r$xm)
  list(xm = lapply(seq_along(variables), function(j) as.numeric(xm[, j])), z = z)
})

protect_rank_swap <- function(df, variables, top, bottom, K0, R0, P, seed) capture({
  r <- sdcMicro::rankSwap(df, variables = variables, TopPercent = top, BottomPercent = bottom,
                          K0 = K0, R0 = R0, P = P, seed = seed)
  lapply(variables, function(v) as.numeric(r[[v]]))
})

protect_hmac <- function(values, key_hex) capture({
  n <- nchar(key_hex)
  key <- as.raw(strtoi(substring(key_hex, seq(1, n, 2), seq(2, n, 2)), 16L))
  as.character(openssl::sha256(values, key = key))
})

## pram() with strata, and the diagonal draws of every stratum replayed: sdcMicro draws
## runif(L, pd, 1) for each stratum (in the order of the pasted strata levels) and then one
## uniform per record of the stratum inside sample() (ProbSampleReplace, fewer than 200
## levels), so the same seed replays every stratum's diagonal.
protect_pram_strata <- function(df, variable, strata, pd, alpha, seed) capture({
  df <- as_factors(df, variable)
  x <- df[[variable]]
  dt <- data.table::as.data.table(df)
  f <- as.factor(dt[, apply(.SD, 1, paste0, collapse = "_"), .SDcols = strata])
  L <- nlevels(x)
  set.seed(seed)
  ds <- list()
  for (s in levels(f)) {
    ds[[length(ds) + 1]] <- stats::runif(L, min = pd, max = 1)
    ii <- which(f == s & !is.na(x))
    for (lv in levels(x)) {
      k <- sum(x[ii] == lv)
      if (k > 0) stats::runif(k)
    }
  }
  set.seed(seed)
  res <- sdcMicro::pram(df, variables = variable, strata_variables = strata, pd = pd, alpha = alpha)
  list(diagonals = ds, strata = as.integer(f), strata_levels = levels(f), levels = levels(x),
       pramed = factor_parts(res[[paste0(variable, "_pram")]]),
       Rs_last = unclass(attr(res, "pram_params")[[variable]]$Rs))
})

## microaggregation, many cases in one call: each case list(x = data.frame, aggr, method,
## measure, trim, seed). For mcdpca and rmd the MCD estimate sdcMicro draws is drawn first
## from the same seed (MASS::cov.mcd of x; robustbase::covMcd of the standardised x), so the
## caller can give sdc the very centre and covariance sdcMicro used.
protect_micro_batch <- function(cases) capture({
  lapply(cases, function(cs) {
    x <- as.data.frame(cs$x)
    fit <- NULL
    if (cs$method == "mcdpca") {
      set.seed(cs$seed)
      f <- MASS::cov.mcd(x, cor = TRUE)
      fit <- list(center = as.numeric(f$center), cov = unname(as.matrix(f$cov)))
    }
    if (cs$method == "rmd") {
      set.seed(cs$seed)
      y <- apply(x, 2, function(v) (v - mean(v)) / sd(v))
      f <- robustbase::covMcd(y)
      fit <- list(center = as.numeric(f$center), cov = unname(as.matrix(f$cov)))
    }
    set.seed(cs$seed)
    r <- sdcMicro::microaggregation(x, variables = colnames(x), aggr = cs$aggr, method = cs$method,
                                    measure = cs$measure, trim = cs$trim)
    list(mx = lapply(r$mx, as.numeric), fit = fit)
  })
})

## seconds of `reps` timed microaggregation calls (after one untimed call), and the last $mx
protect_micro_time <- function(x, aggr, method, reps) capture({
  x <- as.data.frame(x)
  set.seed(1)
  r <- sdcMicro::microaggregation(x, variables = colnames(x), aggr = aggr, method = method)
  t <- system.time(for (i in seq_len(reps)) r <- sdcMicro::microaggregation(x, variables = colnames(x),
                                                                        aggr = aggr, method = method))[["elapsed"]]
  list(seconds = t / reps, mx = lapply(r$mx, as.numeric))
})

## recordSwap and its infoLoss (sdcMicro >= 5.6), on a createDat() census file
protect_create_dat <- function(n, seed) capture({
  set.seed(seed)
  frame_parts(as.data.frame(sdcMicro::createDat(n)))
})

protect_record_swap <- function(df, hid, hierarchy, similar, swaprate, k_anonymity, risk_variables,
                                carry_along, return_swapped_id, seed) capture({
  log <- tempfile(fileext = ".txt")
  on.exit(unlink(log))
  r <- suppressMessages(sdcMicro::recordSwap(df, hid = hid, hierarchy = hierarchy, similar = similar,
                                             swaprate = swaprate, k_anonymity = k_anonymity,
                                             risk_variables = risk_variables, carry_along = carry_along,
                                             return_swapped_id = return_swapped_id, log_file_name = log,
                                             seed = seed))
  frame_parts(as.data.frame(r))
})

utility_info_loss <- function(df, swapped, table_vars, hid) capture({
  il <- sdcMicro::infoLoss(data.table::as.data.table(df), data.table::as.data.table(swapped),
                           table_vars = table_vars, hid = hid)
  m <- as.data.frame(il$measures)
  list(what = as.character(m$what), absD = as.numeric(m$absD), relabsD = as.numeric(m$relabsD),
       abssqrtD = as.numeric(m$abssqrtD), cells = nrow(il$cellvalues),
       false_zero = as.integer(il$false_zero), false_nonzero = as.integer(il$false_nonzero))
})

## microaggrGower, many cases in one call: each case list(x = data.frame, variables, aggr,
## dist_var, by, mixed, mixed_constant, weights, cat ("sample" or "mode"), numfun, seed).
## sdcMicro's internal maGowerWORK is called (its data.frame method does not pass aggr on).
## The neighbours: the row numbers (.row) are aggregated last, with a numFun that keeps the
## values it is given for them (the row numbers of the k nearest, nearest first); numFun is
## called for each record in turn, for its numeric variables in order, records in the order
## of the split by `by` (as maGowerWORK splits).
protect_gower_batch <- function(cases) capture({
  lapply(cases, function(cs) {
    x <- as.data.frame(cs$x)
    nf <- if (cs$numfun == "median") stats::median else mean
    cf <- if (cs$cat == "mode") VIM::maxCat else VIM::sampleCat
    m <- sum(vapply(cs$variables, function(v) is.numeric(x[[v]]), logical(1))) + 1L
    kept <- list()
    calls <- 0L
    numfun <- function(v) {
      calls <<- calls + 1L
      if (calls %% m != 0L) return(nf(v))
      kept[[length(kept) + 1L]] <<- v
      v[1]
    }
    x$.row <- as.numeric(seq_len(nrow(x)))
    set.seed(cs$seed)
    res <- suppressWarnings(sdcMicro:::maGowerWORK(x, variables = c(cs$variables, ".row"), aggr = cs$aggr,
      dist_var = cs$dist_var, by = cs$by, mixed = cs$mixed, mixed.constant = cs$mixed_constant,
      weights = cs$weights, numFun = numfun, catFun = cf))
    if (is.null(cs$by)) f <- factor(rep(1, nrow(x))) else
      f <- as.factor(apply(x[, cs$by, drop = FALSE], 1, function(r) paste(as.character(r), collapse = "--")))
    who <- unlist(split(seq_len(nrow(x)), f), use.names = FALSE)
    nb <- matrix(0L, nrow(x), cs$aggr)
    nb[who, ] <- do.call(rbind, lapply(kept, as.integer))
    list(out = frame_parts(res[, cs$variables, drop = FALSE]), neighbours = nb)
  })
})

## VIM::gowerD(x, x) with the variables' kinds given: the distance matrix
protect_gower_d <- function(x, numerical, factors, orders, mixed, lev_orders, mixed_constant, weights) capture({
  x <- as.data.frame(x)
  unname(as.matrix(VIM::gowerD(x, x, weights = weights, numerical = numerical, factors = factors, orders = orders,
    mixed = mixed, levOrders = lev_orders, mixed.constant = mixed_constant)))
})

## LocalRecProg on numeric columns: the recoded (_lr) columns, and the CPU seconds (user + system)
## of `reps` timed calls after the first (reps = 0: not timed)
protect_local_rec_prog <- function(df, categorical, numerical, ancestors, setting, k_level, find_lowest,
                                   weight, low_memory, missing_value, reps) capture({
  df <- as.data.frame(df)
  run <- function() sdcMicro::LocalRecProg(df, categorical = categorical, numerical = numerical,
    ancestors = ancestors, ancestor_setting = setting, k_level = k_level, FindLowestK = find_lowest,
    weight = weight, lowMemory = low_memory, missingValue = missing_value)
  r <- run()
  secs <- 0
  if (reps > 0) {
    st <- system.time(for (i in seq_len(reps)) run())
    secs <- (st[["user.self"]] + st[["sys.self"]]) / reps
  }
  vars <- c(categorical, numerical)
  list(values = lapply(vars, function(v) as.numeric(r[[paste0(v, "_lr")]])), seconds = secs)
})
