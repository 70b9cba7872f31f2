# SPDX-License-Identifier: GPL-2.0-only
# bash completion for idlesim; installed as share/bash-completion/completions/idlesim, or
# source it from ~/.bashrc. The commands, each command's options and the governor, machine
# and workload names come from the idlesim being completed (the first word of the line),
# at completion time: its help texts, `idlesim governors`, `idlesim machines`. So they are
# always the ones of that binary (and its --governor PATH.c or --machine FILE.json).

# The commands `idlesim --help` lists.
_idlesim_commands()
{
	"$1" --help 2>/dev/null | awk '/^commands:/ { f = 1; next }
		f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }'
}

# The options `idlesim help CMD` lists (sweep's with its merge and summary), long and short.
_idlesim_options()
{
	"$1" help "$2" 2>/dev/null | grep -o -e '--[a-z][a-z0-9-]*' -e '^ *-[a-zA-Z],' |
		tr -d ' ,' | sort -u
}

# The values an option takes where the help spells them as a|b|c ("--format text|json").
_idlesim_option_values()
{
	"$1" help "$2" 2>/dev/null | grep -o -e "$3 [a-z0-9|-]*|[a-z0-9|-]*" | head -n 1 |
		sed "s/^$3 //" | tr '|' ' '
}

_idlesim_names()
{
	case $2 in
	governors)
		# "menu@6.19  ..." rows; the families too (menu names the newest menu).
		"$1" governors 2>/dev/null | awk 'NR > 1 && /^[^ ]/ { print $1;
			if (sub(/@.*/, "", $1)) print $1 }' | sort -u ;;
	machines)
		"$1" machines 2>/dev/null | awk 'NR > 1 { print $1 }' ;;
	workloads)
		# The list the error for an unknown workload gives.
		"$1" gen --workload '?' 2>&1 | sed -n 's/.*(\(.*\)).*/\1/p' | tr -d ',' ;;
	esac
}

# COMPREPLY from words, completing the last item of a comma-separated list (-g menu,te).
_idlesim_list()
{
	local cur=$1 words=$2 head=""

	if [[ $cur == *,* ]]; then
		head=${cur%,*},
		cur=${cur##*,}
	fi
	COMPREPLY=($(compgen -P "$head" -W "$words" -- "$cur"))
}

_idlesim()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd="" i vals

	COMPREPLY=()
	[[ $bin == "~/"* ]] && bin=$HOME/${bin#"~/"}
	((COMP_CWORD > 1)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --name=VALUE: bash splits at "=" (COMP_WORDBREAKS).
	if [[ $cur == = ]]; then
		cur=""
	elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(_idlesim_commands "$bin") --help --version" -- "$cur"))
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	[[ $cur == = ]] && cur=""
	case $prev in
	--governor | -g)
		_idlesim_list "$cur" "$(_idlesim_names "$bin" governors)"
		[[ $cur == */* || $cur == *.c ]] && COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	--machine | -m)
		_idlesim_list "$cur" "$(_idlesim_names "$bin" machines)"
		COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
		return 0 ;;
	--workload)
		COMPREPLY=($(compgen -W "$(_idlesim_names "$bin" workloads)" -- "$cur"))
		return 0 ;;
	--wake-latency)
		COMPREPLY=($(compgen -W "worst typical measured" -- "$cur"))
		return 0 ;;
	--timer-kind)
		COMPREPLY=($(compgen -W "wheel hrtimer mix" -- "$cur"))
		return 0 ;;
	--input-format)
		COMPREPLY=($(compgen -W "auto ftrace trace-cmd perf systrace trace-dat" -- "$cur"))
		return 0 ;;
	--trace | -t | --output | -o | --wult)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	-*)
		[[ $prev == -f ]] && prev=--format
		vals=$(_idlesim_option_values "$bin" "$cmd" "$prev")
		if [[ -n $vals ]]; then
			COMPREPLY=($(compgen -W "$vals" -- "$cur"))
			return 0
		fi ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_idlesim_options "$bin" "$cmd")" -- "$cur"))
		return 0
	fi
	case $cmd in
	help)
		((COMP_CWORD == 2)) &&
			COMPREPLY=($(compgen -W "$(_idlesim_commands "$bin")" -- "$cur")) ;;
	machines)
		COMPREPLY=($(compgen -W "$(_idlesim_names "$bin" machines) calibrate import" -- "$cur")
			$(compgen -f -X '!*.json' -- "$cur") $(compgen -f -X '!*.t[ag][rz]*' -- "$cur")
			$(compgen -d -- "$cur")) ;;
	sweep)
		((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "merge summary" -- "$cur"))
		COMPREPLY+=($(compgen -f -- "$cur")) ;;
	*)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
	return 0
}

complete -F _idlesim idlesim
